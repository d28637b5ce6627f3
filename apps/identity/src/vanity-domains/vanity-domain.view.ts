import { ApiProperty } from '@nestjs/swagger';
import type { BrandConfiguration, TypefaceEntry, VanityDomainEntity } from '@edu/persistence';
import { BrandConfigurationDto, type TypefaceDto } from './dto/vanity-domain.dto';

export class DomainOwnerView {
  @ApiProperty({ enum: ['tenant'] }) type: 'tenant';
  @ApiProperty({ format: 'uuid' }) id: string;
}

/** Spec 2.8. */
export class VanityDomainView {
  @ApiProperty() domain: string;
  @ApiProperty({ type: DomainOwnerView }) owner: DomainOwnerView;
  @ApiProperty({ type: [String], format: 'uuid' }) tenants: string[];
  @ApiProperty({ example: 'PENDING_DNS' }) status: string;
  @ApiProperty({ type: BrandConfigurationDto }) brand_configuration: BrandConfiguration;
}

function typeface(t: TypefaceEntry | TypefaceDto): TypefaceEntry {
  return t.source === 'file'
    ? { name: t.name, source: t.source, file_type: t.file_type, file: t.file }
    : { name: t.name, source: t.source };
}

/** A canonical copy (fixed key order, `via` always present) of a brand configuration. */
export function brandConfiguration(b: BrandConfiguration | BrandConfigurationDto): BrandConfiguration {
  return {
    portal_name: b.portal_name,
    primary_color: b.primary_color,
    secondary_color: b.secondary_color,
    typefaces: { sans: b.typefaces.sans.map(typeface), serif: b.typefaces.serif.map(typeface) },
    font_styles: { header: [...b.font_styles.header], prose: [...b.font_styles.prose] },
    layout: b.layout,
    logo: { light: b.logo.light, dark: b.logo.dark },
    background: {
      color: { dark: b.background.color.dark, light: b.background.color.light },
      gradient: {
        from: b.background.gradient.from,
        via: b.background.gradient.via ?? null,
        to: b.background.gradient.to,
      },
      image: b.background.image,
      position: b.background.position,
      repeat: b.background.repeat,
      size: b.background.size,
    },
  };
}

export function toVanityDomainView(d: VanityDomainEntity): VanityDomainView {
  return {
    domain: d.domain,
    owner: { type: 'tenant', id: d.tenantId },
    tenants: [...d.tenants],
    status: d.status,
    brand_configuration: brandConfiguration(d.brandConfiguration),
  };
}
