import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  raw: { status: 200, contentType: 'image/png', description: 'The built-in icon (PNG) of the placeholder app a blocked device sees' },
  notes: 'Served for any source id; deployed, API Gateway answers it as binary to clients that accept image/png or image/*.',
};
