/** `npm run build:functions`: synthesizes with bundling (cdk synth) and prints each bundle's size. */
import { parseArgs } from 'node:util';
import { bundleSizes, bundleSizeTable } from '../infra/tooling/bundle-sizes';
import { readTemplate, stackTemplatePath } from '../infra/tooling/cloud-assembly';

const { values } = parseArgs({ options: { stack: { type: 'string' }, assembly: { type: 'string', default: 'cdk.out' } } });

try {
  console.log(bundleSizeTable(bundleSizes(readTemplate(stackTemplatePath(values.assembly, values.stack)), values.assembly)));
} catch (error) {
  console.error(`Error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
