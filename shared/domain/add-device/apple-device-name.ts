import type { DeviceClass } from '../../records/account';

/**
 * Apple's device name: "iPad" in it is how Apple (and the simulator) tells an iPad's class from a registration.
 * Its own module so the reservation worker can name profiles without bundling the add path (and node-forge).
 */
export function appleDeviceName(deviceClass: DeviceClass, udid: string): string {
  const word = deviceClass === 'ipad' ? 'iPad' : deviceClass === 'mac' ? 'Mac' : 'iPhone';
  return `${word} ${udid.replace(/-/g, '').slice(-8).toUpperCase()}`;
}
