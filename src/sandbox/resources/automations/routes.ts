import { type Resource, routesResolvedBy } from '../../resource.ts';
import { contactViewsSlice } from './contact-views.ts';
import {
  createAutomation,
  deleteAutomation,
  deleteContactView,
  getAutomation,
  getRun,
  listAutomations,
  listContactViews,
  listRuns,
  putContactView,
  replaceAutomation,
  requireAutomationObjectType,
} from './handlers.ts';
import { automationsSlice } from './model.ts';
import { runnerOf, subscribeAutomations } from './runner.ts';
import { runsOf, runsSlice } from './runs.ts';

const MANY = '/v2/prism/{teamId}/{automationObjectType}/triggered_automations';
const ONE = `${MANY}/{automationId}`;

/** Routes of one object type (the object type is checked first). */
const route = routesResolvedBy(requireAutomationObjectType);

export const automationsResource: Resource = {
  name: 'automations',
  slices: [automationsSlice, runsSlice, contactViewsSlice],
  subscribe: subscribeAutomations,
  // Runs restored from a data file resume (those stopped during a step, and those due at
  // once); the timer stops on close.
  start: (store) => {
    const runner = runnerOf(store);
    runsOf(store).resumeRunning(store);
    runner.wake();
    return () => runner.stop();
  },
  routes: [
    route('POST', MANY, 'createAutomation', createAutomation),
    route('GET', MANY, 'listAutomations', listAutomations),
    route('GET', ONE, 'getAutomation', getAutomation),
    route('PUT', ONE, 'replaceAutomation', replaceAutomation),
    route('DELETE', ONE, 'deleteAutomation', deleteAutomation),
    { kind: 'control', method: 'GET', path: '/__sandbox/automation_runs', handler: listRuns },
    { kind: 'control', method: 'GET', path: '/__sandbox/automation_runs/{runId}', handler: getRun },
    { kind: 'control', method: 'GET', path: '/__sandbox/contact_views', handler: listContactViews },
    {
      kind: 'control',
      method: 'PUT',
      path: '/__sandbox/contact_views/{viewId}',
      handler: putContactView,
    },
    {
      kind: 'control',
      method: 'DELETE',
      path: '/__sandbox/contact_views/{viewId}',
      handler: deleteContactView,
    },
  ],
};
