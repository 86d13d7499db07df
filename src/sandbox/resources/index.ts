// The resources the sandbox serves. Adding one: a folder resources/<name>/ with routes.ts,
// handlers.ts and model.ts, and one line here. (The webhooks resource is made from the
// sandbox's options: the default ones here, others by launchSandbox.)

import type { Resource } from '../resource.ts';
import { automationsResource } from './automations/routes.ts';
import { grantsResource } from './grants/routes.ts';
import { importsResource } from './imports/routes.ts';
import { listsResource } from './lists/routes.ts';
import { propertiesResource } from './properties/routes.ts';
import { realtimeResource } from './realtime/routes.ts';
import { recordsResource } from './records/routes.ts';
import { viewsResource } from './views/routes.ts';
import { webhooksResource } from './webhooks/routes.ts';

export const resources: readonly Resource[] = [
  recordsResource,
  grantsResource,
  propertiesResource,
  viewsResource,
  automationsResource,
  importsResource,
  listsResource,
  realtimeResource(),
  webhooksResource(),
];
