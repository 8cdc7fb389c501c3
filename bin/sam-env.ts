/**
 * `npm run sam:env [-- --endpoint URL] [--prefix P] [--stack NAME] [--out FILE]`: writes the `sam local`
 * env-vars file for the template in cdk.out (run `npm run synth` first).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { readTemplate, stackTemplatePath } from '../infra/tooling/cloud-assembly';
import { DEFAULT_SAM_ENV, samEnvVars } from '../infra/tooling/sam-env';

const { values } = parseArgs({
  options: {
    endpoint: { type: 'string', default: process.env.SAM_DYNAMODB_ENDPOINT ?? DEFAULT_SAM_ENV.endpoint },
    prefix: { type: 'string', default: process.env.TABLE_PREFIX ?? DEFAULT_SAM_ENV.tablePrefix },
    stack: { type: 'string' },
    assembly: { type: 'string', default: 'cdk.out' },
    out: { type: 'string', default: '.local/sam-env.json' },
  },
});

try {
  const templatePath = stackTemplatePath(values.assembly, values.stack);
  const env = samEnvVars(readTemplate(templatePath), { endpoint: values.endpoint, tablePrefix: values.prefix, logLevel: DEFAULT_SAM_ENV.logLevel });
  mkdirSync(dirname(values.out), { recursive: true });
  writeFileSync(values.out, `${JSON.stringify(env, null, 2)}\n`);
  console.log(`Wrote ${values.out} for ${Object.keys(env).length} functions of ${relative('.', templatePath)} (DynamoDB ${values.endpoint}, tables ${values.prefix}*)`);
  // Only Docker Desktop defines host.docker.internal by itself; Docker Engine on Linux maps it when asked.
  const addHost = process.platform === 'linux' && values.endpoint.includes('host.docker.internal') ? ' --add-host host.docker.internal:host-gateway' : '';
  console.log(`  sam local start-api -t ${relative('.', templatePath)} --env-vars ${values.out} --ssl-cert-file .local/sam-cert.pem --ssl-key-file .local/sam-key.pem${addHost}`);
} catch (error) {
  console.error(`Error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
