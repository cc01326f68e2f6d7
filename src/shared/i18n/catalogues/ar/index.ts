// The ar catalogue: one file per area of the product, each kept by whoever writes that area.
import settings from './settings.json' with { type: 'json' };
import records from './records.json' with { type: 'json' };
import account from './account.json' with { type: 'json' };
import health from './health.json' with { type: 'json' };
import share from './share.json' with { type: 'json' };
import documents from './documents.json' with { type: 'json' };
import shared from './shared.json' with { type: 'json' };

export default { settings, records, account, health, share, documents, shared };
