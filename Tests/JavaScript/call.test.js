// Unit tests of public/call.js's decisions with Node's built-in runner: node --test Tests/JavaScript/
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const page = require('../../public/call.js');

const agents = {
  iPhoneSafari: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  iPhoneChrome: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
  androidChrome: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  samsung: 'Mozilla/5.0 (Linux; Android 14; SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
  androidFirefox: 'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0',
  desktopChrome: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  macSafari: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
};

// One User-Agent per in-app browser the issue names, iOS and Android where the app exists on both.
const webviews = [
  ['instagram', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/21E236 Instagram 326.0.3.29.95 (iPhone15,2; iOS 17_4; en_US; en; scale=3.00; 1179x2556; 590072163)'],
  ['instagram', 'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/UQ1A.240205.004; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/122.0.6261.64 Mobile Safari/537.36 Instagram 321.0.0.39.106 Android'],
  ['facebook', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/455.0.0.40.107;FBBV/586118925;FBDV/iPhone15,2;FBMD/iPhone;FBSN/iOS;FBSV/17.4;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5]'],
  ['facebook', 'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/UQ1A.240205.004; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/122.0.6261.64 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/452.0.0.39.110;]'],
  ['messenger', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/MessengerForiOS;FBAV/450.0.0.34.109;FBBV/580000000;FBDV/iPhone15,2]'],
  ['messenger', 'Mozilla/5.0 (Linux; Android 14; Pixel 8; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/122.0.6261.64 Mobile Safari/537.36 [FB_IAB/Orca-Android;FBAV/450.0.0.38.108;]'],
  ['linkedin', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [LinkedInApp]/9.29.2234'],
  ['tiktok', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 musical_ly_34.0.0 JsSdk/2.0 NetType/WIFI Channel/App Store ByteLocale/en Region/US'],
  ['tiktok', 'Mozilla/5.0 (Linux; Android 14; Pixel 8; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/122.0.6261.64 Mobile Safari/537.36 trill_340003 BytedanceWebview/d8a21c6'],
  ['snapchat', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Snapchat/12.80.0.40 (like Safari/8617.1.17.10.9, panda)'],
  ['line', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari Line/14.3.0'],
  ['twitter', 'Mozilla/5.0 (Linux; Android 14; Pixel 8; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/122.0.6261.64 Mobile Safari/537.36 TwitterAndroid'],
  ['twitter', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Twitter for iPhone/10.34'],
  ['google', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) GSA/308.0.614944334 Mobile/15E148 Safari/604.1'],
  ['whatsapp', 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.7390.124 Mobile Safari/537.36 [WA4A/2.25.32.75;]'],
  ['whatsapp', 'Mozilla/5.0 (iPhone; CPU iPhone OS 26_0_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0.1 Mobile/15E148 Safari/604.1 [WAiOS/2.25.31]'],
];

const canonical = 'https://links.example.com/call/abc?type=video';
const intent = 'intent://links.example.com/call/abc?type=video#Intent;scheme=https;package=com.example.video;S.browser_fallback_url=x;end';
function pageFor(agent, extra) {
  return Object.assign({
    platform: page.platformOf(agent, 0), webview: page.webviewOf(agent), engine: page.engineOf(agent), iOSVersion: page.iOSVersionOf(agent), canonical,
    intent, scheme: 'examplevideo://call/abc?type=video', appHostURL: '', host: 'links.example.com', hasWeb: true,
  }, extra || {});
}

test('platforms: iPhone, iPad with a Mac User-Agent and a touch screen, Android, computers', () => {
  assert.equal(page.platformOf(agents.iPhoneSafari, 5), 'ios');
  assert.equal(page.platformOf(agents.iPhoneChrome, 5), 'ios');
  assert.equal(page.platformOf(agents.macSafari, 5), 'ios');
  assert.equal(page.platformOf(agents.macSafari, 0), 'desktop');
  assert.equal(page.platformOf(agents.androidChrome, 5), 'android');
  assert.equal(page.platformOf(agents.samsung, 5), 'android');
  assert.equal(page.platformOf(agents.androidFirefox, 5), 'android');
  assert.equal(page.platformOf(agents.desktopChrome, 0), 'desktop');
});

test('every in-app browser the issue names is recognised; browsers are not', () => {
  for (const [name, agent] of webviews) assert.equal(page.webviewOf(agent), name, agent);
  for (const agent of Object.values(agents)) assert.equal(page.webviewOf(agent), '', agent);
  const names = new Set(page.WEBVIEWS.map((entry) => entry[0]));
  for (const name of ['instagram', 'facebook', 'messenger', 'linkedin', 'tiktok', 'snapchat', 'line', 'twitter', 'google', 'whatsapp']) assert.ok(names.has(name), name);
});

test('iPhone: the primary action is never a bare custom-scheme link', () => {
  for (const agent of [agents.iPhoneSafari, agents.iPhoneChrome, ...webviews.map((w) => w[1]).filter((a) => /iPhone/.test(a))]) {
    const decision = page.decide(pageFor(agent));
    assert.ok(!(decision.openLeads && /^examplevideo:/.test(decision.open)), agent);
    assert.notEqual(decision.lead, 'open', agent);
  }
});

test('iPhone with openInAppHost: the open button is the call on that host, and leads', () => {
  const decision = page.decide(pageFor(agents.iPhoneSafari, { appHostURL: 'https://open.links.example.com/call/abc?type=video' }));
  assert.equal(decision.open, 'https://open.links.example.com/call/abc?type=video');
  assert.ok(decision.openLeads);
  assert.equal(decision.store, 'app-store');
});

test('iPhone served by openInAppHost: the app is missing, the store leads, no open button', () => {
  const decision = page.decide(pageFor(agents.iPhoneSafari, { appHostURL: 'https://open.links.example.com/call/abc?type=video', host: 'open.links.example.com' }));
  assert.equal(decision.open, '');
  assert.ok(decision.appMissing);
  assert.equal(decision.lead, 'store');
});

test('iPhone without openInAppHost or scheme: no open button (the Smart App Banner opens the app)', () => {
  const decision = page.decide(pageFor(agents.iPhoneSafari, { scheme: '' }));
  assert.equal(decision.open, '');
  assert.equal(decision.lead, 'store');
});

test('Android: the intent through the https App Links filter leads (Firefox without the fallback: browsers.test.js)', () => {
  for (const agent of [agents.androidChrome, agents.samsung, agents.androidFirefox]) {
    const decision = page.decide(pageFor(agent));
    assert.equal(decision.open, agent === agents.androidFirefox ? intent.replace(';S.browser_fallback_url=x', '') : intent);
    assert.ok(decision.openLeads);
    assert.match(decision.open, /#Intent;scheme=https;package=/);
    assert.equal(decision.store, 'play-store');
  }
});

test('computers: web join leads; a phone app\'s scheme is not offered (issue 32: dead-ends.test.js)', () => {
  const decision = page.decide(pageFor(agents.desktopChrome));
  assert.equal(decision.lead, 'web');
  assert.ok(!decision.openLeads);
  assert.equal(decision.open, '');
  assert.equal(page.decide(pageFor(agents.desktopChrome, { hasWeb: false })).lead, 'qr');
});

test('in-app browsers: Android leaves through an intent without a package; iOS 17+ through x-safari-https, with the hint', () => {
  for (const [, agent] of webviews) {
    const decision = page.decide(pageFor(agent));
    if (/Android/.test(agent)) {
      assert.equal(decision.escape, 'intent://links.example.com/call/abc?type=video#Intent;scheme=https;action=android.intent.action.VIEW;end');
      assert.equal(decision.hint, 'android');
    } else {
      assert.equal(decision.escape, 'x-safari-https://links.example.com/call/abc?type=video');
      assert.equal(decision.hint, 'ios');
    }
    assert.equal(decision.lead, 'escape', agent);
  }
  const old = 'Mozilla/5.0 (iPhone; CPU iPhone OS 16_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 300.0';
  const decision = page.decide(pageFor(old));
  assert.equal(decision.escape, '');
  assert.equal(decision.hint, 'ios');
});

test('a hostile User-Agent changes nothing but the platform and webview names it picks from fixed lists', () => {
  const hostile = '"><script>alert(1)</script> Instagram iPhone OS 99_0 like Mac OS X';
  assert.equal(page.webviewOf(hostile), 'instagram');
  assert.equal(page.platformOf(hostile, 0), 'ios');
  const decision = page.decide(pageFor(hostile));
  assert.ok(!JSON.stringify(decision).includes('<script>'));
});

test('language choice matches the server: exact, longer, shorter, same language, default', () => {
  const tags = ['en', 'de', 'pt-BR', 'ar'];
  assert.equal(page.chooseLanguage(['de-AT'], tags), 'de');
  assert.equal(page.chooseLanguage(['pt'], tags), 'pt-BR');
  assert.equal(page.chooseLanguage(['pt-PT'], tags), 'pt-BR');
  assert.equal(page.chooseLanguage(['sv', 'ar'], tags), 'ar');
  assert.equal(page.chooseLanguage(['sv'], tags), 'en');
});

test('copying before the store happens on phones only', () => {
  assert.ok(page.copiesBeforeStore('ios') && page.copiesBeforeStore('android'));
  assert.ok(!page.copiesBeforeStore('desktop') && !page.copiesBeforeStore('mobile'));
});

test('language choice agrees with the server on the shared case table (Tests/Shared/language-choice-cases.json)', () => {
  const table = JSON.parse(require('node:fs').readFileSync(require('node:path').join(__dirname, '../Shared/language-choice-cases.json'), 'utf8'));
  assert.ok(table.cases.length >= 20);
  for (const entry of table.cases) {
    assert.equal(page.chooseLanguage(entry.ranges, entry.tags), entry.expected, JSON.stringify(entry));
  }
});

test('beacons: the coarse platform puts bots, then in-app browsers, before the device', () => {
  assert.equal(page.beaconPlatform('ios', '', agents.iPhoneSafari), 'ios');
  assert.equal(page.beaconPlatform('android', '', agents.androidChrome), 'android');
  assert.equal(page.beaconPlatform('desktop', '', agents.desktopChrome), 'desktop');
  assert.equal(page.beaconPlatform('mobile', '', 'Mozilla/5.0 (Mobile; KaiOS 3.0)'), 'other');
  for (const [name, agent] of webviews) assert.equal(page.beaconPlatform(page.platformOf(agent, 0), page.webviewOf(agent), agent), 'in_app', name);
  for (const bot of ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
    'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
    'WhatsApp/2.23.20.0 A', 'TelegramBot (like TwitterBot)']) {
    assert.equal(page.beaconPlatform(page.platformOf(bot, 0), page.webviewOf(bot), bot), 'bot', bot);
  }
  // A phone brand that ends in "bot" is a phone.
  const cubot = 'Mozilla/5.0 (Linux; Android 9; CUBOT X19) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36';
  assert.equal(page.beaconPlatform(page.platformOf(cubot, 0), page.webviewOf(cubot), cubot), 'android');
});

test('beacons: only the words the server accepts, same origin, nothing of the call', () => {
  assert.equal(page.beaconURL('store', 'ios'), '/.linkhost/beacon?e=store&p=ios');
  assert.equal(page.beaconURL('view', 'in_app'), '/.linkhost/beacon?e=view&p=in_app');
  assert.equal(page.beaconURL('purchase', 'ios'), '');
  assert.equal(page.beaconURL('view', 'abc123'), '');
  const sent = [];
  assert.equal(page.report({ sendBeacon: (url) => { sent.push(url); return true; } }, 'open', 'android'), true);
  assert.deepEqual(sent, ['/.linkhost/beacon?e=open&p=android']);
  // No sendBeacon, one that throws, or an unknown word: nothing sent, nothing thrown.
  assert.equal(page.report({}, 'open', 'android'), false);
  assert.equal(page.report({ sendBeacon: () => { throw new Error('blocked'); } }, 'open', 'android'), false);
  assert.equal(page.report({ sendBeacon: () => { sent.push('x'); return true; } }, 'nope', 'android'), false);
  assert.equal(sent.length, 1);
});
