import '../infra/local/no-metrics';
import { main } from '../infra/local/start';

await main();
