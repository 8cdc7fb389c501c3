/** The device simulator's command (`npm run --silent device-sim -- …`): see infra/device-simulator/cli.ts. */
import { runDeviceSim } from '../infra/device-simulator/cli';

process.exitCode = await runDeviceSim(process.argv.slice(2));
