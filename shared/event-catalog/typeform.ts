import type { CatalogEvent, FixtureContext } from './types'

// Typeform: the payload is `form_response` of `{event_id, event_type, form_response}`, as
// Typeform's example payload shows it: the form's definition (its fields and endings) and one
// answer per field, each answer naming its field by id, type and ref. Typeform sends two event
// types: complete responses (form_response) and partial ones (form_response_partial: no
// submitted_at, no ending, only the answers given so far). Tokens fresh per send.

const FORM = 'lT4Z3jHk'

const fields = [
  { id: 'DlXFaesGBpoF', title: 'How would you rate your webhook setup?', type: 'opinion_scale', ref: 'setup_score', properties: {} },
  { id: 'SMEUb7VJz92Q', title: 'What is your email?', type: 'email', ref: 'email', properties: {} },
  { id: 'k6TP9oLGgHjl', title: 'Which provider do you integrate first?', type: 'multiple_choice', ref: 'first_provider', allow_multiple_selections: false, allow_other_choice: false, properties: {}, choices: [{ id: 'cPL5xhfoNdpc', label: 'Stripe', ref: 'stripe' }, { id: 'aVgO3wWB6wlr', label: 'GitHub', ref: 'github' }] },
  { id: 'X4BgU2f1K6tG', title: 'Can we contact you?', type: 'yes_no', ref: 'contact_ok', properties: {} },
]

const field = (index: number) => {
  const f = fields[index]!
  return { id: f.id, type: f.type, ref: f.ref }
}

const answers = [
  { type: 'number', number: 9, field: field(0) },
  { type: 'email', email: 'ada@example.com', field: field(1) },
  { type: 'choice', choice: { id: 'cPL5xhfoNdpc', label: 'Stripe', ref: 'stripe' }, field: field(2) },
  { type: 'boolean', boolean: true, field: field(3) },
]

function response(ctx: FixtureContext, complete: boolean) {
  const token = ctx.id('', 32).toLowerCase()
  return {
    form_id: FORM,
    token,
    response_id: token,
    landed_at: ctx.iso(-300_000).replace(/\.\d+Z$/, 'Z'),
    ...(complete ? { submitted_at: ctx.iso().replace(/\.\d+Z$/, 'Z') } : {}),
    hidden: { user_id: ctx.id('usr_', 12) },
    calculated: { score: complete ? 9 : 0 },
    variables: [
      { key: 'score', type: 'number', number: complete ? 9 : 0 },
      { key: 'name', type: 'text', text: 'typeform' },
    ],
    definition: { id: FORM, title: 'Webhook setup survey', fields, endings: [{ id: 'dN5FLyFpCMFo', ref: 'thanks', title: 'Thank you!', type: 'thankyou_screen', properties: { show_button: false, share_icons: false, button_mode: 'default_redirect', button_text: 'again' } }] },
    answers: complete ? answers : answers.slice(0, 2),
    ...(complete ? { ending: { id: 'dN5FLyFpCMFo', ref: 'thanks' } } : {}),
  }
}

export const typeformEvents: CatalogEvent[] = [
  // form_response: the example payload of Typeform's webhooks docs.
  { type: 'form_response', description: 'A respondent submitted the form.', payload: (ctx) => response(ctx, true) },
  // form_response_partial: a response in progress (partial responses enabled on the webhook).
  { type: 'form_response_partial', description: 'A respondent answered part of the form.', payload: (ctx) => response(ctx, false) },
]
