import { handle } from 'hono/aws-lambda';
import { readConfig } from '../../shared/config';
import { apiSettings, createApiDeps, createCoreDeps, createOutboundQueue, functionLogger } from '../lib/deps';
import { ApiConfigSchema } from '../lib/config';
import { createApp } from './app';

const config = readConfig(ApiConfigSchema, process.env);
/** Lambda entry: API Gateway (HTTP API) → the Hono app. */
export const handler = handle(
  createApp(
    createApiDeps(createCoreDeps(config), createOutboundQueue(config), functionLogger('api'), () => new Date(), apiSettings(config)),
  ),
);
