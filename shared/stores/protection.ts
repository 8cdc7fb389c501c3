/**
 * The protection store of every function that reaches the protection rules (unlock codes, the block list, a
 * misuse report): the DynamoDB repository, wired when the handler imports this module.
 */
import {
  blockUdid,
  deviceStanding,
  grantUnlock,
  listUnlockCodes,
  pageBlocked,
  pageMonitored,
  putUnlockCodes,
  recordMonitored,
  unblockUdid,
  useUnlockCode,
} from '../db/repositories/protection-repository';
import type { ProtectionStore } from '../domain/sources/protection-store';
import { wireStores } from '../domain/stores';

export const dynamoProtectionStore: ProtectionStore = {
  putUnlockCodes,
  listUnlockCodes,
  useUnlockCode,
  grantUnlock,
  deviceStanding,
  blockUdid,
  unblockUdid,
  recordMonitored,
  pageBlocked,
  pageMonitored,
};

wireStores({ protection: dynamoProtectionStore });
