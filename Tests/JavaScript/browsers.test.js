// Issue 41, item 2: each browser's open link, the one its engine handles. One row per browser: the URL the
// open button carries (or none), the way out of an in-app browser, and what leads. docs/guest-journey.md's
// rows say why each engine gets its form. node --test Tests/JavaScript/
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const page = require('../../public/call.js');

const canonical = 'https://links.example.com/call/abc?type=video';
// The intent as the server writes it (CallPageValues.swift): Chrome's form, with the fallback to Play.
const fallback = 'S.browser_fallback_url=https%3A%2F%2Fplay.google.com%2Fstore%2Fapps%2Fdetails%3Fid%3Dcom.example.video%26referrer%3Dhttps%253A%252F%252Flinks.example.com%252Fcall%252Fabc%253Ftype%253Dvideo';
const intent = `intent://links.example.com/call/abc?type=video#Intent;scheme=https;package=com.example.video;${fallback};end`;
const packageOnly = 'intent://links.example.com/call/abc?type=video#Intent;scheme=https;package=com.example.video;end';
const androidEscape = 'intent://links.example.com/call/abc?type=video#Intent;scheme=https;action=android.intent.action.VIEW;end';
const safariEscape = 'x-safari-' + canonical;

const rows = [
  ['Chrome, Android', 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    { open: intent, escape: '', lead: 'open' }],
  ['Samsung Internet', 'Mozilla/5.0 (Linux; Android 14; SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
    { open: intent, escape: '', lead: 'open' }],
  ['Edge, Android', 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 EdgA/131.0.2903.87',
    { open: intent, escape: '', lead: 'open' }],
  ['Firefox, Android', 'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0',
    { open: packageOnly, escape: '', lead: 'open' }],
  ['Firefox, Android tablet', 'Mozilla/5.0 (Android 14; Tablet; rv:133.0) Gecko/133.0 Firefox/133.0',
    { open: packageOnly, escape: '', lead: 'open' }],
  ['Safari, iPhone', 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    { open: 'https://open.links.example.com/call/abc?type=video', escape: '', lead: 'open' }],
  ['Firefox, iPhone (WebKit)', 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/133.0 Mobile/15E148 Safari/605.1.15',
    { open: 'https://open.links.example.com/call/abc?type=video', escape: '', lead: 'open' }],
  ['Firefox, computer', 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
    { open: '', escape: '', lead: 'web' }],
  ['Facebook, Android', 'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/UQ1A.240205.004; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/122.0.6261.64 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/452.0.0.39.110;]',
    { open: '', escape: androidEscape, lead: 'escape', webview: 'facebook' }],
  ['WhatsApp, Android', 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.7390.124 Mobile Safari/537.36 [WA4A/2.25.32.75;]',
    { open: '', escape: androidEscape, lead: 'escape', webview: 'whatsapp' }],
  ['WhatsApp, iPhone', 'Mozilla/5.0 (iPhone; CPU iPhone OS 26_0_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0.1 Mobile/15E148 Safari/604.1 [WAiOS/2.25.31]',
    { open: '', escape: safariEscape, lead: 'escape', webview: 'whatsapp' }],
];

function pageFor(agent) {
  return {
    platform: page.platformOf(agent, /iPhone|Android/.test(agent) ? 5 : 0), webview: page.webviewOf(agent), engine: page.engineOf(agent),
    iOSVersion: page.iOSVersionOf(agent), canonical, intent, scheme: 'examplevideo://call/abc?type=video',
    appHostURL: 'https://open.links.example.com/call/abc?type=video', host: 'links.example.com', hasWeb: true,
    desktopScheme: false, hasAppStore: true, hasPlayStore: true,
  };
}

for (const [name, agent, expected] of rows) {
  test(`${name}: the open link its engine handles`, () => {
    const decision = page.decide(pageFor(agent));
    assert.equal(decision.open, expected.open, 'open');
    assert.equal(decision.escape, expected.escape, 'escape');
    assert.equal(decision.lead, expected.lead, 'lead');
    assert.equal(page.webviewOf(agent), expected.webview || '', 'in-app browser');
  });
}

test('Firefox for Android is never offered the fallback extra its AppLinksInterceptor loads instead of the app', () => {
  const firefox = rows.filter(([name]) => /^Firefox, Android/.test(name));
  assert.equal(firefox.length, 2);
  for (const [, agent] of firefox) {
    assert.equal(page.engineOf(agent), 'gecko');
    const open = page.decide(pageFor(agent)).open;
    assert.ok(!open.includes('browser_fallback_url'), open);
    assert.match(open, /^intent:\/\/links\.example\.com\/call\/abc\?type=video#Intent;scheme=https;package=com\.example\.video;end$/);
  }
  // Chromium's browsers and webviews write "like Gecko", never "Gecko/<version>".
  for (const [name, agent] of rows.filter(([name]) => !/^Firefox/.test(name))) assert.equal(page.engineOf(agent), 'chromium', name);
});

test('the fallback extra comes out wherever the server writes it, and nothing else does', () => {
  assert.equal(page.withoutFallback(intent), packageOnly);
  assert.equal(page.withoutFallback(packageOnly), packageOnly);
  assert.equal(page.withoutFallback('intent://h/p#Intent;scheme=https;package=p;S.browser_fallback_url=https%3A%2F%2Fh%2Fp;S.other=x;end'),
    'intent://h/p#Intent;scheme=https;package=p;S.other=x;end');
  assert.equal(page.withoutFallback(''), '');
});

test('WhatsApp: its in-app browser is one, with the way out; its link-preview fetcher stays a bot', () => {
  const preview = 'WhatsApp/2.23.20.0 A';
  assert.equal(page.webviewOf(preview), '');
  assert.equal(page.beaconPlatform(page.platformOf(preview, 0), page.webviewOf(preview), preview), 'bot');
  for (const [, agent, expected] of rows.filter(([name]) => /^WhatsApp/.test(name))) {
    assert.equal(page.beaconPlatform(page.platformOf(agent, 5), page.webviewOf(agent), agent), 'in_app');
    assert.equal(page.decide(pageFor(agent)).hint, /Android/.test(agent) ? 'android' : 'ios');
    assert.ok(expected.escape);
  }
});
