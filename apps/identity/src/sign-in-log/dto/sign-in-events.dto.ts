import { CursorPageQuery } from '@edu/http';

/** GET /tenants/:id/sign-ins: cursor paging (as the alerts delivery log), the next page in `Link`. */
export class ListSignInsQuery extends CursorPageQuery('The cursor of the `Link` rel="next" of the previous page') {}
