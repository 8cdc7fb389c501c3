import * as z from 'zod/mini';
import { nowSeconds } from '../../../shared/clock';
import { importDevice } from '../../../shared/domain/devices/device-import';
import { flagInt, flagText, parseFlags, type Command } from '../cli-types';

export const deviceCommands: Record<string, Command> = {
  'device import': async (flags) => {
    const f = parseFlags(flags, {
      user: flagText(),
      udid: flagText(40),
      kid: z.optional(flagText(128)),
      type: z.optional(z.enum(['iphone', 'ipad'], { error: 'must be iphone or ipad' })),
      warranty: z.optional(flagInt()),
      beizhu: z.optional(flagText(500)),
      pname: z.optional(flagText(100)),
    });
    const device = await importDevice({ userId: f.user, udid: f.udid, kid: f.kid, type: f.type, warranty: f.warranty, beizhu: f.beizhu, pname: f.pname }, nowSeconds());
    return { kid: device.kid, id: device.id };
  },
};
