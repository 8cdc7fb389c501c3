import { main } from '../infra/local/start';

await main();
