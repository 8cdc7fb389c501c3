/**
 * What the protection rules (unlock codes, unlocks, the block list and the misuse monitor) ask of storage,
 * declared here so the rules own it: the DynamoDB repository implements it (`shared/stores/protection.ts`
 * wires it once per function), the rule tests run on an in-memory one. Each write that must hold under
 * concurrency is one conditional write or transaction of the repository, proven on DynamoDB Local.
 */
import type { BlockEntry, BlockReason, CodeUse, DeviceStanding, EntryPage, MonitorEntry, MonitorRole, UnlockCode } from '../../records/protection';

export interface ProtectionStore {
  /** Stores new codes all together, each only while no such code exists; false (nothing stored) when one did. */
  putUnlockCodes(sourceId: string, codes: readonly { code: string; days: number }[], now: number): Promise<boolean>;
  listUnlockCodes(sourceId: string): Promise<UnlockCode[]>;
  /** Uses a code for `udid` only while it is unused: of concurrent uses exactly one wins; a refusal says who holds it. */
  useUnlockCode(sourceId: string, code: string, udid: string, now: number): Promise<CodeUse>;
  /** Lets `udid` download the locked apps until `endsAt`; a later end already granted is kept. */
  grantUnlock(sourceId: string, udid: string, endsAt: number): Promise<void>;
  deviceStanding(sourceId: string, udid: string): Promise<DeviceStanding>;
  /** Blocks `udid` and takes it out of the monitor together; an existing block stands as it was. */
  blockUdid(sourceId: string, udid: string, reason: BlockReason, now: number): Promise<{ entry: BlockEntry; added: boolean }>;
  /** Whether it was blocked. */
  unblockUdid(sourceId: string, udid: string): Promise<boolean>;
  /** Counts a report of `udid` in `role` only while it is not blocked (false: blocked, nothing counted). */
  recordMonitored(sourceId: string, udid: string, role: MonitorRole, now: number): Promise<boolean>;
  /** Up to `limit` blocked entries in UDID order, after the UDID `after`. */
  pageBlocked(sourceId: string, limit: number, after?: string): Promise<EntryPage<BlockEntry>>;
  /** Up to `limit` monitor entries in `monitorPosition` order, after the position `after`. */
  pageMonitored(sourceId: string, limit: number, after?: string): Promise<EntryPage<MonitorEntry>>;
}
