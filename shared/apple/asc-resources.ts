import * as z from 'zod/mini';

/**
 * The JSON:API documents the client reads, checked with zod so a changed response fails loudly here instead of
 * as an undefined deep in the add flow. Only the fields the product uses are required.
 */

/** Apple documents ENABLED and DISABLED; live teams also show PROCESSING (and may show more): keep any string. */
export type AscDeviceStatus = 'ENABLED' | 'DISABLED' | 'PROCESSING' | (string & {});

export interface AscDevice {
  id: string;
  name: string;
  udid: string;
  platform: string;
  /** IPHONE, IPAD, MAC … as Apple derives it from the hardware. */
  deviceClass: string;
  status: AscDeviceStatus;
  model?: string;
  addedDate?: string;
}

export interface AscCertificate {
  id: string;
  name: string;
  certificateType: string;
  serialNumber: string;
  expirationDate: string;
  /** Base64 DER. */
  certificateContent?: string;
}

const deviceSchema = z.object({
  type: z.literal('devices'),
  id: z.string(),
  attributes: z.object({
    name: z.string(),
    udid: z.string(),
    platform: z.string(),
    deviceClass: z.string(),
    status: z.string(),
    model: z.nullish(z.string()),
    addedDate: z.nullish(z.string()),
  }),
});

const linkageSchema = z.object({ type: z.string(), id: z.string() });

export const deviceDocumentSchema = z.object({ data: deviceSchema });
export const devicesDocumentSchema = z.object({ data: z.array(deviceSchema) });

export const profileDocumentSchema = z.object({
  data: z.object({
    type: z.literal('profiles'),
    id: z.string(),
    attributes: z.object({
      name: z.string(),
      profileState: z.string(),
      profileContent: z.string(),
      uuid: z.string(),
      expirationDate: z.string(),
    }),
  }),
});

/** A profile read with `include=devices`: the relationship then carries the ids of the devices in it. */
export const profileDevicesDocumentSchema = z.object({
  data: z.object({
    relationships: z.object({ devices: z.object({ data: z.array(linkageSchema) }) }),
  }),
});

export const certificateDocumentSchema = z.object({
  data: z.object({
    type: z.literal('certificates'),
    id: z.string(),
    attributes: z.object({
      name: z.string(),
      certificateType: z.string(),
      serialNumber: z.string(),
      expirationDate: z.string(),
      certificateContent: z.nullish(z.string()),
    }),
  }),
});

export function toDevice({ id, attributes }: z.infer<typeof deviceSchema>): AscDevice {
  const { model, addedDate, ...rest } = attributes;
  return { id, ...rest, ...(model ? { model } : {}), ...(addedDate ? { addedDate } : {}) };
}

export function toCertificate({ data }: z.infer<typeof certificateDocumentSchema>): AscCertificate {
  const { certificateContent, ...rest } = data.attributes;
  return { id: data.id, ...rest, ...(certificateContent ? { certificateContent } : {}) };
}

export interface AscBundleId {
  id: string;
  name: string;
  identifier: string;
}

const certificateSchema = certificateDocumentSchema.shape.data;
export const certificatesDocumentSchema = z.object({ data: z.array(certificateSchema) });

const bundleIdSchema = z.object({
  type: z.literal('bundleIds'),
  id: z.string(),
  attributes: z.object({ name: z.string(), identifier: z.string() }),
});
export const bundleIdDocumentSchema = z.object({ data: bundleIdSchema });
export const bundleIdsDocumentSchema = z.object({ data: z.array(bundleIdSchema) });

export function toBundleId({ id, attributes }: z.infer<typeof bundleIdSchema>): AscBundleId {
  return { id, name: attributes.name, identifier: attributes.identifier };
}
