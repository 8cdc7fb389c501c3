/**
 * `npm run openapi [-- --out FILE] [-- --server URL]`: writes the OpenAPI 3.1 document generated from the
 * route table and the functions' contracts (stdout unless --out is given).
 */
import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from '../infra/tooling/openapi-document';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const document = `${JSON.stringify(await buildOpenApiDocument({ serverUrl: flag('--server') }), null, 2)}\n`;
const out = flag('--out');
if (out) {
  writeFileSync(out, document);
  process.stderr.write(`OpenAPI document written to ${out}\n`);
} else {
  process.stdout.write(document);
}
