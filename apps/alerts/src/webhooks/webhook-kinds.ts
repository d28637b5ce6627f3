import { Inject, Injectable } from '@nestjs/common';
import { insufficientScope, SCOPE_CATALOG } from '@edu/auth';
import { ApiError, ApiErrorCode, type Principal, type ScopeCatalog } from '@edu/domain';
import type { RosterEventFilter, WebhookKind, WebhookType } from '@edu/persistence';
import type { CreateWebhookDto } from './dto/webhook.dto';

/** What a new webhook receives, as stored. */
export interface WebhookReceives {
  kind: WebhookKind;
  type: WebhookType;
  eventFilter: RosterEventFilter | null;
}

const invalid = (field: string, problem: string) =>
  new ApiError(ApiErrorCode.ValidationFailed, `${field}: ${problem}`, { fields: [{ field, problems: [problem] }] });

/**
 * The kinds of webhook (design §11): `alerts` (a `type` of delivery) or `roster-events` (the roster
 * change feed of the app's deployments; the token must hold the feed's scope, an optional `filter`,
 * no `type`: every batch carries whole objects).
 */
@Injectable()
export class WebhookKinds {
  constructor(@Inject(SCOPE_CATALOG) private readonly catalog: ScopeCatalog) {}

  receives(who: Principal, dto: CreateWebhookDto): WebhookReceives {
    if ((dto.kind ?? 'alerts') === 'alerts') {
      if (dto.filter !== undefined) throw invalid('filter', 'only roster-events webhooks take a filter');
      return { kind: 'alerts', type: dto.type as WebhookType, eventFilter: null };
    }
    if (dto.type !== undefined)
      throw invalid('type', 'roster-events webhooks have no type (batches carry whole objects)');
    const feed = this.catalog.uri('roster.events.readonly');
    if (!who.scopes.has(feed)) throw insufficientScope([feed]);
    const filter = dto.filter ? { objects: dto.filter.objects, types: dto.filter.types } : {};
    const eventFilter = filter.objects || filter.types ? JSON.parse(JSON.stringify(filter)) : null;
    return { kind: 'roster-events', type: 'full-payload', eventFilter };
  }
}
