// Issue 32, items 8 and 9: public/call.js never leads with a dead end. A computer is offered a custom scheme only
// when a desktop app declares it; an app in no store gets no store link; an in-app browser shows no open
// button beside the text saying it may not open the app. node --test Tests/JavaScript/
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const page = require('../../public/call.js');

const desktop = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const iPhone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const android = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const instagramIOS = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/21E236 Instagram 326.0.3.29.95 (iPhone15,2; iOS 17_4; en_US; en; scale=3.00; 1179x2556; 590072163)';
const facebookAndroid = 'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/UQ1A.240205.004; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/122.0.6261.64 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/452.0.0.39.110;]';
const canonical = 'https://links.example.com/call/abc?type=video';

function pageFor(agent, extra) {
  return Object.assign({
    platform: page.platformOf(agent, /iPhone|Android/.test(agent) ? 5 : 0), webview: page.webviewOf(agent), engine: page.engineOf(agent),
    iOSVersion: page.iOSVersionOf(agent), canonical,
    intent: 'intent://links.example.com/call/abc?type=video#Intent;scheme=https;package=com.example.video;end',
    scheme: 'examplevideo://call/abc?type=video', appHostURL: '', host: 'links.example.com', hasWeb: true,
    desktopScheme: false, hasAppStore: true, hasPlayStore: true,
  }, extra || {});
}

test('a computer is never offered a phone app\'s custom scheme, with or without web join', () => {
  for (const hasWeb of [true, false]) {
    const decision = page.decide(pageFor(desktop, { hasWeb }));
    assert.equal(decision.open, '', `hasWeb ${hasWeb}`);
    assert.ok(!decision.openLeads);
    assert.equal(decision.lead, hasWeb ? 'web' : 'qr');
  }
});

test('a computer is offered the scheme when the config says a desktop app declares it; web join still leads', () => {
  const withWeb = page.decide(pageFor(desktop, { desktopScheme: true }));
  assert.equal(withWeb.open, 'examplevideo://call/abc?type=video');
  assert.equal(withWeb.lead, 'web');
  const withoutWeb = page.decide(pageFor(desktop, { desktopScheme: true, hasWeb: false }));
  assert.equal(withoutWeb.lead, 'open');
  assert.ok(withoutWeb.openLeads);
});

test('an app in no store: the page never leads with a store link it does not have', () => {
  const missing = page.decide(pageFor(iPhone, { hasAppStore: false, appHostURL: 'https://links.example.com/call/abc?type=video' }));
  assert.ok(missing.appMissing);
  assert.equal(missing.store, '');
  assert.equal(missing.lead, 'web');
  const noWeb = page.decide(pageFor(iPhone, { hasAppStore: false, hasWeb: false, scheme: '' }));
  assert.equal(noWeb.store, '');
  assert.equal(noWeb.lead, 'qr');
  const androidNoPlay = page.decide(pageFor(android, { hasPlayStore: false }));
  assert.equal(androidNoPlay.store, '');
  assert.equal(androidNoPlay.lead, 'open');
});

test('a phone with nothing to open, install or join here says where to join; one with a next step does not (issue 41, item 1)', () => {
  // The open host's page on an iPhone without the app, for a site with no appStoreID, installURL or web join.
  const openHost = { hasAppStore: false, hasWeb: false, appHostURL: 'https://links.example.com/call/abc?type=video' };
  const stranded = page.decide(pageFor(iPhone, openHost));
  assert.ok(stranded.appMissing);
  assert.equal(stranded.lead, 'qr');
  assert.ok(stranded.elsewhere);
  // Web join, or an install link, is a next step on the phone itself.
  assert.ok(!page.decide(pageFor(iPhone, Object.assign({}, openHost, { hasWeb: true }))).elsewhere);
  assert.ok(!page.decide(pageFor(iPhone, Object.assign({}, openHost, { hasAppStore: true }))).elsewhere);
  // Android always has the open button; a computer has the QR code itself.
  assert.ok(!page.decide(pageFor(android, { hasPlayStore: false, hasWeb: false })).elsewhere);
  const computer = page.decide(pageFor(desktop, { hasWeb: false }));
  assert.equal(computer.lead, 'qr');
  assert.ok(!computer.elsewhere);
});

test('in-app browsers: the escape leads and no open button stands beside "may not open the app from here"', () => {
  for (const agent of [instagramIOS, facebookAndroid]) {
    const decision = page.decide(pageFor(agent));
    assert.equal(decision.lead, 'escape', agent);
    assert.equal(decision.open, '', agent);
  }
  // Before iOS 17 there is no escape link: the open button stays, the hint says the manual way.
  const old = 'Mozilla/5.0 (iPhone; CPU iPhone OS 16_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 300.0';
  const decision = page.decide(pageFor(old, { appHostURL: 'https://open.links.example.com/call/abc?type=video' }));
  assert.equal(decision.escape, '');
  assert.equal(decision.open, 'https://open.links.example.com/call/abc?type=video');
});

test('every decision leads with something the page shows', () => {
  const agents = [desktop, iPhone, android, instagramIOS, facebookAndroid];
  for (const agent of agents) {
    for (const hasWeb of [true, false]) {
      for (const stores of [true, false]) {
        for (const scheme of ['examplevideo://call/abc?type=video', '']) {
          const decision = page.decide(pageFor(agent, { hasWeb, hasAppStore: stores, hasPlayStore: stores, scheme }));
          const shown = { open: decision.open !== '', store: decision.store !== '', web: hasWeb, escape: decision.escape !== '', qr: true };
          assert.ok(shown[decision.lead], `${agent} web=${hasWeb} stores=${stores} scheme=${scheme}: leads with ${decision.lead}`);
          if (page.platformOf(agent, 0) === 'desktop') assert.equal(decision.open, '', 'no scheme on a computer');
        }
      }
    }
  }
});

test('every shipped locale: texts that agree with the buttons beside them (issue 32, item 9)', () => {
  const fs = require('node:fs');
  const path = require('node:path');
  const folder = path.join(__dirname, '../../public/locales');
  for (const file of fs.readdirSync(folder).filter((name) => name.endsWith('.json'))) {
    const strings = JSON.parse(fs.readFileSync(path.join(folder, file), 'utf8')).strings;
    // The web join and the in-app browser's escape stand side by side: they must not read alike.
    assert.notEqual(strings.joinInBrowser, strings.openInBrowser, file);
    // The open-host page says the app is missing above the install section, which says what to do.
    assert.ok(strings.appMissing.includes('{appName}') && !strings.appMissing.includes(strings.storesHint), file);
    for (const name of ['installApp', 'notFoundNext', 'homeTitle', 'homeHeading', 'homeLead']) {
      assert.ok(typeof strings[name] === 'string' && strings[name].includes('{appName}'), `${file}: ${name}`);
    }
  }
  const english = JSON.parse(fs.readFileSync(path.join(folder, 'en.json'), 'utf8')).strings;
  assert.ok(!/can.t open/.test(english.inAppBrowser), 'no "can\'t open" above a way into the app');
  assert.ok(!/when you first start it/.test(english.appMissing), 'one instruction: install, then open the link again');
});
