/** Devices: `#/devices` the list (filters in the route's query), `#/devices/<kid>` one device, `#/devices/add`. */
import type { ScreenProps } from '../registry';
import { AddDevice } from './add';
import { DeviceDetails } from './details';
import { DeviceList } from './list';

export default function Devices({ rest, query }: ScreenProps) {
  const [first] = rest;
  if (first === 'add') return <AddDevice />;
  if (first) return <DeviceDetails kid={first} />;
  return <DeviceList key={query.toString()} query={query} />;
}
