// The templates a list is made from (facts.md lists their ids; what each holds is not
// published, so these are the sandbox's): the object type of its records, the name and the
// options of its stage property, and the columns its views show. `custom` takes the object
// type from the request and has a generic pipeline.

import { ListTemplate } from '../../../generated/enums.ts';

export const LIST_TEMPLATES = ListTemplate;

export type TemplateId = (typeof LIST_TEMPLATES)[number];

export interface Template {
  /** The default name of a list made from it. */
  title: string;
  /** The object type of its records; undefined for `custom` (the request's). */
  objectType: string | undefined;
  /** The name of its stage property (a select with alias app_stage). */
  stageName: string;
  /** The stage options, in pipeline order: display value and colour scheme. */
  stages: readonly (readonly [string, string])[];
}

const t = (
  title: string,
  objectType: string | undefined,
  stageName: string,
  stages: string,
): Template => {
  const colours = ['gray', 'blue', 'yellow', 'purple', 'orange', 'green', 'red'];
  const names = stages.split(', ');
  return {
    title,
    objectType,
    stageName,
    // Pipeline colours in order; the last stage of a pipeline that can fail is red.
    stages: names.map((v, i) => [
      v,
      i === names.length - 1 && /^(Lost|Rejected|Passed|Declined|Archived|Exited|Paused)$/.test(v)
        ? 'red'
        : colours[Math.min(i, colours.length - 2)]!,
    ]),
  };
};

export const TEMPLATES: Readonly<Record<TemplateId, Template>> = {
  sales_deals: t(
    'Sales deals',
    'deal',
    'Deal stage',
    'Lead, Qualified, Proposal, Negotiation, Won, Lost',
  ),
  recruiting: t(
    'Recruiting',
    'contact',
    'Hiring stage',
    'Applied, Screening, Interview, Offer, Hired, Rejected',
  ),
  partnerships: t(
    'Partnerships',
    'organization',
    'Partnership stage',
    'Prospect, Contacted, In talks, Active, Paused',
  ),
  fundraising: t(
    'Fundraising',
    'organization',
    'Fundraising stage',
    'Target, Contacted, Meeting, Due diligence, Committed, Passed',
  ),
  knowledge_base: t(
    'Knowledge base',
    'document',
    'Article status',
    'Draft, In review, Published, Archived',
  ),
  issue_tracker: t(
    'Issue tracker',
    'action',
    'Issue status',
    'Backlog, To do, In progress, In review, Done',
  ),
  content_calendar: t(
    'Content calendar',
    'document',
    'Content stage',
    'Idea, Drafting, Editing, Scheduled, Published',
  ),
  job_applications: t(
    'Job applications',
    'organization',
    'Application stage',
    'Wishlist, Applied, Interviewing, Offer, Accepted, Rejected',
  ),
  project_tracker: t(
    'Project tracker',
    'action',
    'Project status',
    'Planned, In progress, Blocked, Done',
  ),
  feedback: t(
    'Feedback',
    'contact',
    'Feedback status',
    'New, Reviewing, Planned, Shipped, Declined',
  ),
  portco_tracker: t(
    'Portfolio companies',
    'organization',
    'Portfolio stage',
    'Onboarding, Active, At risk, Exited',
  ),
  deal_flow: t(
    'Deal flow',
    'organization',
    'Deal flow stage',
    'Sourced, First meeting, Due diligence, Investment committee, Invested, Passed',
  ),
  lp_fundraising: t(
    'LP fundraising',
    'contact',
    'LP stage',
    'Prospect, Contacted, Meeting, Soft commit, Committed, Declined',
  ),
  custom: t('Custom list', undefined, 'Stage', 'To do, In progress, Done'),
};

/** The properties a list's views show first, by object type (shared default slugs). */
export const PRIMARY_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  contact: ['name', 'email'],
  organization: ['name', 'domain'],
  identity: ['name', 'email'],
  deal: ['name', 'amount'],
  action: ['title', 'due_date'],
  document: ['title', 'kind'],
  event: ['title', 'starts_at'],
  engagement: ['title', 'kind'],
};
