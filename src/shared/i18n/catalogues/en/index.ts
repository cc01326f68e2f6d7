// The en catalogue: one file per area of the product, each kept by whoever writes that area.
import settings from './settings.json';
import records from './records.json';
import account from './account.json';
import health from './health.json';
import share from './share.json';
import documents from './documents.json';
import shared from './shared.json';
import server from './server.json';

export default { settings, records, account, health, share, documents, shared, server };
