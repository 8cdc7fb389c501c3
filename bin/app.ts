import { buildOpenApiDocument } from '../infra/tooling/openapi-document';
import { createApp } from '../infra/cdk/create-app';
import { buildConsole } from '../infra/tooling/console-build';

// The console function's bundle carries its built web app (copied after bundling): built first when stale.
await buildConsole({ quiet: true });

// The deployed document names the stage URL pattern; the real URL is the stack output ApiUrl.
const openApiDocument = await buildOpenApiDocument({ serverUrl: 'https://{apiId}.execute-api.{region}.amazonaws.com/prod' });
createApp({ openApiDocument }).app.synth();
