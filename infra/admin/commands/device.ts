import { z } from 'zod';
import { nowSeconds } from '../../../shared/clock';
import { DeviceImportError, importDevice } from '../../../shared/domain/devices/device-import';
import { CliError, flagInt, flagText, parseFlags, type Command } from '../cli-types';

export const deviceCommands: Record<string, Command> = {
  'device import': async (flags) => {
    const f = parseFlags(flags, {
      user: flagText(),
      udid: flagText(40),
      kid: flagText(128).optional(),
      type: z.enum(['iphone', 'ipad'], { error: 'must be iphone or ipad' }).optional(),
      warranty: flagInt().optional(),
      beizhu: flagText(500).optional(),
      pname: flagText(100).optional(),
    });
    try {
      const device = await importDevice({ userId: f.user, udid: f.udid, kid: f.kid, type: f.type, warranty: f.warranty, beizhu: f.beizhu, pname: f.pname }, nowSeconds());
      return { kid: device.kid, id: device.id };
    } catch (err) {
      if (err instanceof DeviceImportError) throw new CliError(err.message);
      throw err;
    }
  },
};
