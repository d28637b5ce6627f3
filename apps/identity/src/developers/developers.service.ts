import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { ApiError, type Principal } from '@edu/domain';
import { AccessPolicy } from '../common/access-policy';
import { conflict, uniqueOr409 } from '../common/api-errors';
import { normalizeEmail, uuidOr404 } from '../common/ids';
import { DeveloperRepository } from '../directory/developer.repository';
import { toDeveloperView, type DeveloperView } from './developer.view';
import type { CreateDeveloperDto, UpdateDeveloperDto } from './dto/developer.dto';

const EMAIL_TAKEN = 'Another developer already has this e-mail address';

/**
 * App developers, provisioned by the operator (platform.admin). A developer's apps are created
 * with `POST /apps` naming the developer as owner; its developer-context tokens come from them.
 */
@Injectable()
export class DevelopersService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly developers: DeveloperRepository,
    private readonly policy: AccessPolicy,
  ) {}

  async list(who: Principal, rawId?: string): Promise<DeveloperView[]> {
    this.policy.operator(who);
    if (rawId === undefined) return (await this.developers.listAll()).map(toDeveloperView);
    return [toDeveloperView(await this.found(uuidOr404(rawId, 'Developer')))];
  }

  async create(who: Principal, dto: CreateDeveloperDto): Promise<DeveloperView> {
    this.policy.operator(who);
    const email = normalizeEmail(dto.email);
    return uniqueOr409(
      () =>
        this.ds.transaction(async (m) => {
          if (await this.developers.findByEmail(email, m)) throw conflict(EMAIL_TAKEN);
          return toDeveloperView(await this.developers.save({ name: dto.name, email }, m));
        }),
      EMAIL_TAKEN,
    );
  }

  async update(who: Principal, rawId: string, dto: UpdateDeveloperDto): Promise<DeveloperView> {
    this.policy.operator(who);
    const id = uuidOr404(rawId, 'Developer');
    return uniqueOr409(
      () =>
        this.ds.transaction(async (m) => {
          const developer = await this.found(id, m);
          const email = dto.email === undefined ? developer.email : normalizeEmail(dto.email);
          const holder = email === developer.email ? null : await this.developers.findByEmail(email, m);
          if (holder) throw conflict(EMAIL_TAKEN);
          return toDeveloperView(
            await this.developers.save({ ...developer, name: dto.name ?? developer.name, email }, m),
          );
        }),
      EMAIL_TAKEN,
    );
  }

  private async found(id: string, m?: EntityManager) {
    const developer = await this.developers.find(id, m);
    if (!developer) throw ApiError.notFound('Developer');
    return developer;
  }
}
