import type { CatalogRepository } from '../db/catalog-repository';
import type { PageCursors } from '../db/page-cursor';
import type { PhoneNumber } from '../domain/phone-number';
import { parseCursorListQuery } from '../domain/paging';
import { listPage, openCursor, type ListPage } from './list-page';

/** GET /phone-numbers: the business's numbers (ops provision them with the admin command line). */
export class PhoneNumberService {
  constructor(private readonly deps: { catalog: CatalogRepository; cursors: PageCursors }) {}

  /** One page, newest (highest id) first. */
  async list(businessId: number, query: Record<string, string | undefined>): Promise<ListPage<PhoneNumber>> {
    const { limit, cursor } = parseCursorListQuery(query);
    const scope = { businessId, route: 'phone-numbers' };
    const after = await openCursor(this.deps.cursors, scope, cursor);
    return listPage(await this.deps.catalog.pagePhoneNumbers(businessId, { limit, after }), (number) => number, this.deps.cursors, scope);
  }
}
