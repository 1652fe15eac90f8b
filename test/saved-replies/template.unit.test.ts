import { expect } from 'chai';
import { parseTemplate, renderTemplate, TemplateError, type Lookup } from '../../src/capabilities/saved-replies/saved-replies.template.js';

const values: Record<string, string | number | boolean | null> = {
  'contact.name': 'Grace',
  'contact.email': null,
  'conversation.id': 'c-1',
  'member.name': 'Ada',
  'contact.custom_attributes.plan': 'pro',
  'contact.custom_attributes.seats': 12,
  'contact.custom_attributes.beta': false,
  'contact.custom_attributes.plan name': 'spaced',
};
const lookup: Lookup = (v) => values[v];
const render = (body: string) => renderTemplate(parseTemplate(body), lookup);

function refusal(body: string): TemplateError {
  try {
    parseTemplate(body);
  } catch (e) {
    expect(e).to.be.instanceOf(TemplateError);
    expect((e as TemplateError).field).to.equal('body');
    return e as TemplateError;
  }
  throw new Error(`accepted: ${body}`);
}

describe('saved replies: the placeholder parser (unit)', () => {
  it('renders every placeholder, with spaces inside the braces, and scalars of custom attributes as text', () => {
    expect(
      render(
        'Hi {{contact.name}}, {{ member.name }} here about {{conversation.id}} ({{contact.custom_attributes.plan}}, {{contact.custom_attributes.seats}} seats, beta {{contact.custom_attributes.beta}}, {{contact.custom_attributes.plan name}})',
      ),
    ).to.deep.equal({
      body: 'Hi Grace, Ada here about c-1 (pro, 12 seats, beta false, spaced)',
      undefined_variables: [],
    });
  });

  it('takes the fallback when a value is missing, else renders "" and lists the variable once', () => {
    expect(render('Hi {{contact.email | fallback: "there"}}!')).to.deep.equal({ body: 'Hi there!', undefined_variables: [] });
    expect(render('{{contact.email|fallback:""}}.')).to.deep.equal({ body: '.', undefined_variables: [] });
    expect(render('[{{contact.email}}][{{contact.custom_attributes.none}}][{{contact.email}}]')).to.deep.equal({
      body: '[][][]',
      undefined_variables: ['contact.email', 'contact.custom_attributes.none'],
    });
    // a value present ignores the fallback
    expect(render('{{contact.name | fallback: "there"}}').body).to.equal('Grace');
    // escapes in a fallback: only \" and \\
    expect(render('{{contact.email | fallback: "a \\"b\\" \\\\ c"}}').body).to.equal('a "b" \\ c');
  });

  it('interprets nothing else: other {{ is text, values are inserted verbatim and never re-scanned', () => {
    expect(render('{{#if x}} {{ }} {{{contact.name}}} {{"q"}} {{1}} }} {').body).to.equal('{{#if x}} {{ }} {Grace} {{"q"}} {{1}} }} {');
    const html = renderTemplate(parseTemplate('<b>{{contact.name}}</b>'), () => '<script>&amp;{{member.name}}');
    expect(html.body).to.equal('<b><script>&amp;{{member.name}}</b>');
    expect(render('no placeholders at all')).to.deep.equal({ body: 'no placeholders at all', undefined_variables: [] });
    expect(render('')).to.deep.equal({ body: '', undefined_variables: [] });
  });

  it('refuses unknown placeholders, naming them', () => {
    for (const [body, name] of [
      ['Hi {{contact.nmae}}', 'contact.nmae'],
      ['{{ contact.phone }}', 'contact.phone'],
      ['{{Contact.Name}}', 'Contact.Name'],
      ['{{user.name | fallback: "x"}}', 'user.name'],
      ['{{contact.custom_attributes.}}', 'contact.custom_attributes.'],
      ['{{contact.custom_attributes}}', 'contact.custom_attributes'],
      ['{{ foo bar }}', 'foo bar'],
    ] as const) {
      const e = refusal(body);
      expect(e.code, body).to.equal('unknown_placeholder');
      expect(e.message, body).to.include(`{{${name}}}`);
    }
  });

  it('refuses malformed placeholders, saying where', () => {
    for (const body of [
      'Hi {{contact.name',
      'Hi {{contact.name}',
      '{{contact.name | default: "x"}}',
      '{{contact.name | fallback "x"}}',
      '{{contact.name | fallback: x}}',
      '{{contact.name | fallback: "x}}',
      '{{contact.name | fallback: "\\n"}}',
      '{{contact.name!}}',
      '{{contact.name | fallback: "x" | fallback: "y"}}',
    ]) {
      const e = refusal(body);
      expect(e.code, body).to.equal('invalid_placeholder');
      expect(e.message, body).to.match(/at character \d+/);
    }
  });
});
