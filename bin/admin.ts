import '../shared/observability/no-metrics';
import { runAdmin } from '../infra/admin/cli';

process.exitCode = await runAdmin(process.argv.slice(2));
