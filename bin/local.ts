import '../shared/observability/no-metrics';
import { main } from '../infra/local/start';

await main();
