import { unlockCodesData } from '../../shared/contracts/source-contract';
import type { FunctionContract } from '../../infra/openapi/openapi-document';

export const contract: FunctionContract = {
  response: unlockCodesData,
  notes: "The source's unlock codes, newest first, with the UDID that used each and until when its unlock runs.",
};
