// The server's own words (mail, the PDF, reminders, refusals): the web app never loads them.
import server from './server.json' with { type: 'json' };

export default server;
