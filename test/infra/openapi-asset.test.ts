/** The stack publishes the generated OpenAPI document as a file asset and names it in an output. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOpenApiDocument } from '../../infra/tooling/openapi-document';
import { OPENAPI_OUTPUT } from '../../infra/cdk/constructs/openapi-asset';
import { synth } from '../support/synth';

test('the document is a stack asset with an S3 URL output', async () => {
  const document = await buildOpenApiDocument({ serverUrl: 'https://{apiId}.execute-api.{region}.amazonaws.com/prod' });
  const s = synth({ openApiDocument: document });
  const output = s.json.Outputs?.[OPENAPI_OUTPUT] as { Value: { 'Fn::Sub': string } } | undefined;
  expect(output?.Value['Fn::Sub']).toMatch(/^s3:\/\/cdk-[a-z0-9]+-assets-\$\{AWS::AccountId\}-\$\{AWS::Region\}\/[0-9a-f]{64}\.json$/);
  const hash = /([0-9a-f]{64})\.json$/.exec(output!.Value['Fn::Sub'])![1]!;
  const manifest = JSON.parse(readFileSync(join(s.outdir, `${s.stack.artifactId}.assets.json`), 'utf8')) as { files: Record<string, { source: { path: string } }> };
  const published = JSON.parse(readFileSync(join(s.outdir, manifest.files[hash]!.source.path), 'utf8')) as { openapi: string; paths: object };
  expect(published).toEqual(document);
});
