import { createServer } from 'node:http';
import { env } from 'node:process';
import { Webhook } from 'standardwebhooks';
const hook = new Webhook(env.WEBHOOK_SECRET); // the business's whsec_… secret
createServer(async (req, res) => {
  let body = ''; for await (const chunk of req) body += chunk;
  let event; try { event = hook.verify(body, req.headers); } catch { return res.writeHead(401).end(); }
  const { order_id } = event.data.arguments;
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ order_id, status: 'shipped', delivery_date: '2026-11-28' }));
}).listen(8080);
