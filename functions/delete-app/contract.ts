import { deletedAppData } from '../../shared/contracts/subscription-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  response: deletedAppData,
  notes: 'Deletes a draft. A published app must be unpublished first (40003 app_published). Works whatever the subscription says.',
};
