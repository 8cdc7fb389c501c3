import { nowSeconds } from '../../../shared/clock';
import { createApp, createSource } from '../../../shared/domain/sources/source-admin';
import { sourceUrl } from '../../../shared/domain/sources/source';
import { flagText, parseFlags, type Command } from '../cli-types';

export const sourceCommands: Record<string, Command> = {
  'source create': async (flags) => {
    const f = parseFlags(flags, { user: flagText(), name: flagText(100).optional() });
    const source = await createSource({ userId: f.user, name: f.name }, nowSeconds());
    return { source_id: source.source_id, source_url: sourceUrl(source.source_id) };
  },
  'app create': async (flags) => {
    const f = parseFlags(flags, { source: flagText(), name: flagText(200), version: flagText(50), 'download-url': flagText(2048) });
    const app = await createApp({ sourceId: f.source, name: f.name, version: f.version, downloadUrl: f['download-url'] }, nowSeconds());
    return { id: app.id, publish_status: app.publish_status };
  },
};
