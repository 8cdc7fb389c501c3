/**
 * The icon of the placeholder app a blocked device sees: a 120×120 PNG of a red "no entry" sign, built in so
 * that the blocked document never depends on an icon the owner may not have set.
 */
export const BLOCKED_ICON_PNG: Buffer = Buffer.from(
  [
  'iVBORw0KGgoAAAANSUhEUgAAAHgAAAB4CAIAAAC2BqGFAAACJ0lEQVR42u3dy23DQAxFUVaTXfovJU14kRLSQhJY5H3kBbgX51iC',
  '58up1+vbaIiSQGihDaGFFloFoYU2hBZaaBWEFtoQWmihyfH18fnLEPpB3CD0WoMLR6/FxCjuWk8M4a4jxOPcdYp4kLsOEo9w12Xl',
  'Tus6rtxmXceJ27iLr0x7Fgt6sMFM60Ipr0zjKWjaNwvJp8Zbhe1froImD0q50BFD4ancitDNuGBdkC7zeuvijE12r0YWapy92Lpo',
  'ExpM63noBVPyPVkRoZnWk9BrlpoaUqqGF2GN9Qz0nzLTutrS4lsTof+X02Xrak4Ibp0HnbLw8d6msaDh1iDot4hgrR/KoQZ/81zr',
  'MGis9UJopjUC+gkCmvUTjy7In3KcdSo0zXozNMp6OXTQvr14aIj1CWiC9RXocetD0LPWt6AHrc9BT1lfhB6xPgrdbx0AvcAaMak0',
  '+FK3We+cjwZaC91kHQMdbQ1anCW81M9Zr9rXQbZesiUMbr1n7x3cGge90nrJ/mi+NRR6mXX8GZYUazQ08KXGnshrOme4wDrmiHK0',
  'ddhZ8FzrvDISidap9TrirINL/QRZxxevirCGVgmzHBsX2gKDwR8pMx+LwMYWgX1Lpyr00QPQFurug7b0fB90CncDgteDLLoehGzd',
  '1nyvcFoKTeAeabLX7B2A7uQeb6ZXoR6DBq6J7IeOWI3cBr0mhBZaaENooYWWQGihDaGFFloFoYU2hBb6ePwAgl0je6nqGCMAAAAA',
  'SUVORK5CYII=',
  ].join(''),
  'base64',
);
