import { blockEntryData } from '../../shared/contracts/source-contract';
import type { FunctionContract } from '../../infra/openapi/openapi-document';

export const contract: FunctionContract = {
  response: blockEntryData,
  notes: 'Blocks the UDID of the path (25 or 40 hex characters, else 40002) on this source; it leaves the monitor. Blocking a blocked UDID keeps and answers its entry.',
};
