import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CfnOutput } from 'aws-cdk-lib';
import { Asset } from 'aws-cdk-lib/aws-s3-assets';
import { Construct } from 'constructs';

export const OPENAPI_OUTPUT = 'OpenApiDocument';

/**
 * Publishes the generated OpenAPI document with the stack: a file asset in the CDK bootstrap bucket, its
 * S3 URL a stack output, so whoever integrates with a deployed stack reads the contract of that very version.
 */
export class OpenApiAsset extends Construct {
  readonly asset: Asset;

  constructor(scope: Construct, id: string, props: { document: object }) {
    super(scope, id);
    const dir = mkdtempSync(join(tmpdir(), 'appsource-openapi-'));
    writeFileSync(join(dir, 'openapi.json'), `${JSON.stringify(props.document, null, 2)}\n`);
    this.asset = new Asset(this, 'Document', { path: join(dir, 'openapi.json') });
    new CfnOutput(scope, OPENAPI_OUTPUT, { value: this.asset.s3ObjectUrl, description: 'The OpenAPI 3.1 document of this deployment (S3 URL; `aws s3 cp` it)' });
  }
}
