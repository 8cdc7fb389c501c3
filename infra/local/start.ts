import { createTables } from '../../shared/db/create-tables';
import '../../shared/stores/all';
import { startApiServer } from './api-server';
import { startAscSimulator } from '../asc-simulator/server';
import { startBackgroundJobs } from './background-jobs';
import { startDynamoDbLocal, JavaMissingError, waitForDynamoDb } from './dynamodb-local';
import { assertPortFree } from './free-port';
import { DEMO_APPS, seedDemo, seedDemoAccounts, seedDemoPlan, type DemoAddData, type DemoData, type DemoPlanData } from './seed';
import { startDemoDownloads } from './demo-downloads';

export interface LocalRuntimeOptions {
  port: number;
  dynamoPort: number;
  /** Use this DynamoDB instead of starting DynamoDB Local. */
  dynamoEndpoint: string | undefined;
  /** The App Store Connect simulator's port. */
  ascSimPort: number;
}

export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): LocalRuntimeOptions {
  return {
    port: Number(env.PORT ?? 3000),
    dynamoPort: Number(env.DYNAMODB_LOCAL_PORT ?? 8000),
    dynamoEndpoint: env.DYNAMODB_ENDPOINT || undefined,
    ascSimPort: Number(env.ASC_SIM_PORT ?? 3001),
  };
}

export interface LocalRuntime {
  apiUrl: string;
  dynamoEndpoint: string;
  demo: DemoData;
  ascSimUrl: string;
  addDemo: DemoAddData;
  plan: DemoPlanData;
  /** Where the demo drafts' IPAs are served. */
  downloadsUrl: string;
  stop(): Promise<void>;
}

/** Starts everything a laptop needs: DynamoDB Local, the tables, demo data and the API. */
export async function startLocalRuntime(options: LocalRuntimeOptions): Promise<LocalRuntime> {
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => undefined);
  };
  try {
    await assertPortFree(options.port, 'PORT');
    await assertPortFree(options.ascSimPort, 'ASC_SIM_PORT');
    if (!options.dynamoEndpoint) await assertPortFree(options.dynamoPort, 'DYNAMODB_LOCAL_PORT');
    let endpoint = options.dynamoEndpoint;
    if (endpoint) {
      await waitForDynamoDb(endpoint, 5_000);
    } else {
      const dynamo = await startDynamoDbLocal(options.dynamoPort);
      stops.push(() => dynamo.stop());
      endpoint = dynamo.endpoint;
    }
    process.env.DYNAMODB_ENDPOINT = endpoint;
    // Everything here lives on localhost: publish's size lookup, link probes and webhooks may reach loopback servers.
    process.env.FETCH_ALLOW_PRIVATE ??= '1';
    await createTables();
    // The demo apps' IPAs, on loopback: publishing reads them (IPA inspection), the feed links to them.
    const downloads = await startDemoDownloads(DEMO_APPS);
    stops.push(() => downloads.close());
    const demo = await seedDemo(downloads.baseUrl);
    const plan = await seedDemoPlan(demo.userId);
    // SIM_PROCESSING_SECONDS (read by the simulator) sets how long review devices stay PROCESSING.
    const sim = await startAscSimulator({ port: options.ascSimPort });
    stops.push(() => sim.close());
    // Accounts resellers connect with an API key talk to the simulator, as the seeded ones do.
    process.env.APPLE_API_BASE_URL ??= sim.url;
    const addDemo = await seedDemoAccounts(sim, demo.userId);
    const jobs = startBackgroundJobs();
    stops.push(() => jobs.stop());
    const api = await startApiServer(options.port);
    stops.push(() => api.close());
    return { apiUrl: api.url, dynamoEndpoint: endpoint, demo, ascSimUrl: sim.url, addDemo, plan, downloadsUrl: downloads.baseUrl, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The shell variables the README's examples use, named as they are there: the banner prints them as one line
 * to paste, and the README examples test binds the same ones.
 */
export function demoShellVariables(demo: DemoData, code: string, downloadsUrl: string): Record<string, string> {
  return { TOKEN: demo.token, SOURCE: demo.sourceId, KID: demo.device.kid, UDID: demo.device.udid, CODE: code, USER_ID: demo.userId, IPAS: downloadsUrl };
}

export const shellLine = (variables: Record<string, string>) =>
  Object.entries(variables)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');

export function banner(runtime: LocalRuntime): string {
  const { apiUrl, demo, plan } = runtime;
  const auth = `-H 'Authorization: Bearer ${demo.token}'`;
  return [
    '',
    `App source & device service — local runtime (plain HTTP on localhost; deployed, the API is HTTPS only)`,
    `  API:             ${apiUrl}`,
    `  Console:         ${apiUrl}/console   sign in as ${demo.console.login}, password ${demo.console.password}`,
    `                   (the demo user's; local demo only: a new password at every start, data in memory)`,
    `  DynamoDB Local:  ${runtime.dynamoEndpoint} (in memory: data is gone when this stops)`,
    `  Demo user:       ${demo.userId} (tenant ${demo.tenantId})`,
    `  Demo token:      ${demo.token}`,
    `  Demo source:     ${demo.sourceId} (drafts ${demo.draftIds.join(', ')}: ${demo.draftIds[0]} and ${demo.draftIds[1]} publish, ${demo.draftIds[2]} says 2.2.0 for a 2.1.0 IPA)`,
    `  Demo IPAs:       ${runtime.downloadsUrl} (the drafts' files)`,
    `  Demo device:     ${demo.device.kid} (UDID ${demo.device.udid}, enabled)`,
    `  Demo plan:       ${plan.planId} (${plan.sources} sources; the tenant's ${plan.trialDays}-day trial, which the demo user runs)`,
    `  App Store Connect simulator: ${runtime.ascSimUrl} (accounts ${runtime.addDemo.accounts.map((a) => `${a.accountId} ${a.mode}`).join(', ')})`,
    `  Demo activation code (instant, warranty 1): ${runtime.addDemo.code}`,
    '',
    'The README\'s examples use these shell variables (paste the line into your shell):',
    `  ${shellLine(demoShellVariables(demo, runtime.addDemo.code, runtime.downloadsUrl))}`,
    '',
    'Try:',
    `  curl -s -X POST ${apiUrl}/api/appstore/manage/sources/${demo.sourceId}/apps/${demo.draftIds[0]}/publish ${auth} -H 'X-Lang: en'`,
    `  curl -s -X PATCH ${apiUrl}/api/appstore/manage/sources/${demo.sourceId} ${auth} -H 'X-Lang: ru' -H 'Content-Type: application/json' -d '{"name":"My source","encrypt_enabled":0}'`,
    `  curl -s -X POST ${apiUrl}/api/appstore/manage/sources/${demo.sourceId}/apps/${demo.draftIds[2]}/publish ${auth} -H 'Accept-Language: es'`,
    `  curl -s -X POST ${apiUrl}/api/appstore/manage/sources/${demo.sourceId}/apps ${auth} -H 'Content-Type: application/json' -d '{"name":"My App","version":"1.0","download_url":"https://downloads.example.com/my-app.ipa","bundle_identifier":"com.example.myapp","developer_name":"Me","icon_url":"https://downloads.example.com/my-app.png","size":1048576}'`,
    `  curl -s '${apiUrl}/api/rjy/${demo.sourceId}/appstore?udid=${demo.device.udid}'   # the feed for one device (links signed for it)`,
    `  curl -s -X POST ${apiUrl}/api/appstore/manage/sources/${demo.sourceId}/unlock-codes ${auth} -H 'Content-Type: application/json' -d '{"count":3,"days":30}'   # then the feed URL with &code=<code> unlocks locked apps for that UDID`,
    `  curl -s ${apiUrl}/api/appstore/manage/sources/${demo.sourceId}/blocklist ${auth}   # blocked devices and the misuse monitor`,
    `  npm run --silent admin -- source key --source ${demo.sourceId}   # the key of the feed's JWE form (Accept: application/jose)`,
    `  curl -s -X POST ${apiUrl}/api/appstore/manage/sources/${demo.sourceId}/health/check ${auth} -H 'X-Lang: en'   # probe the published apps' download links`,
    `  curl -s '${apiUrl}/api/device/status?token=${demo.token}&kid=${demo.device.kid}&action=disable' -H 'X-Lang: en'`,
    `  curl -s -X POST ${apiUrl}/api/adddevice/v2 -H 'X-Lang: en' -H 'Content-Type: application/json' -d '{"token":"${demo.token}","udid":"00008030-001A2B3C4D5E6F70","warranty":"1"}'`,
    `  curl -s -X POST ${apiUrl}/api/adddevice/v2 -H 'X-Lang: en' -H 'Content-Type: application/json' -d '{"token":"${demo.token}","udid":"00008030-00AA2B3C4D5E6F71","mode":"review"}'   # repeat after a minute for the profile`,
    `  curl -s '${apiUrl}/api/adddevice?token=${demo.token}&udid=00008030-00BB2B3C4D5E6F72&code=${runtime.addDemo.code}'`,
    `  curl -s -X POST ${apiUrl}/api/device/info -H 'Content-Type: application/json' -d '{"token":"${demo.token}","udid":"${demo.device.udid}"}'`,
    '',
    'Operator CLI (same DynamoDB):  npm run --silent admin -- user show --user ' + demo.userId,
    'Press Ctrl-C to stop.',
    '',
  ].join('\n');
}

export async function main(): Promise<void> {
  let runtime: LocalRuntime;
  try {
    runtime = await startLocalRuntime(optionsFromEnv());
  } catch (error) {
    if (error instanceof JavaMissingError) console.error(error.message);
    else console.error(`Could not start the local runtime: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  console.log(banner(runtime));
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping…');
    await runtime.stop();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}
