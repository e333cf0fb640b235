// linkhost call page. The HTML is the same bytes for every device, so any cache in front can share it;
// this script runs in the visitor's browser and picks what works there. Without it the page still
// works: open-in-app, both stores, web join and, on wide screens, the QR code.
(function () {
  'use strict';
  var root = document.documentElement;

  // A cache that ignores Vary may hand out another visitor's language: ask for the browser's own once.
  var offered = (root.getAttribute('data-languages') || '').split(' ').filter(Boolean);
  if (offered.length > 1 && !/[?&]lang=/.test(location.search)) {
    var wanted = chooseLanguage(navigator.languages || [navigator.language || ''], offered);
    if (wanted.toLowerCase() !== root.lang.toLowerCase()) {
      var url = new URL(location.href);
      url.searchParams.set('lang', wanted);
      location.replace(url.href);
      return;
    }
  }

  var agent = navigator.userAgent || '';
  // iPadOS Safari sends a Mac's User-Agent by default; only a touch screen tells the two apart.
  var iPad = /iPad/.test(agent) || (/Macintosh/.test(agent) && navigator.maxTouchPoints > 1);
  var platform = /Android/.test(agent) ? 'android'
    : (/iPhone|iPod/.test(agent) || iPad) ? 'ios'
    : /Mobi/.test(agent) ? 'mobile' : 'desktop';
  root.setAttribute('data-platform', platform);

  var open = document.getElementById('open-app');
  var web = document.getElementById('web-join');
  var intent = open && open.getAttribute('data-intent');
  // Android: an intent opens the app, or Google Play (carrying the call) when it is not installed.
  if (platform === 'android' && intent && intent.indexOf('intent://') === 0) open.href = intent;
  // Only the store of this device.
  hide(platform === 'android' ? 'app-store' : platform === 'ios' ? 'play-store' : '');
  // On a computer the browser is the quickest way in: it becomes the primary button.
  if (platform === 'desktop' && web && open) {
    open.className = 'button secondary';
    web.className = 'button primary';
    web.parentNode.insertBefore(web, open);
  }

  function hide(id) {
    var element = id && document.getElementById(id);
    if (element) element.hidden = true;
  }

  // The server's choice, in the same order: same tag, a longer tag, a shorter one, the same language;
  // the default (listed first) when nothing fits.
  function chooseLanguage(ranges, tags) {
    var lower = tags.map(function (tag) { return tag.toLowerCase(); });
    for (var i = 0; i < ranges.length; i++) {
      var range = String(ranges[i]).toLowerCase();
      if (!range) continue;
      var found = lower.indexOf(range);
      for (var j = 0; found < 0 && j < lower.length; j++) if (lower[j].indexOf(range + '-') === 0) found = j;
      for (var shorter = range; found < 0 && shorter.lastIndexOf('-') > 0;) {
        shorter = shorter.slice(0, shorter.lastIndexOf('-'));
        found = lower.indexOf(shorter);
      }
      for (var k = 0; found < 0 && k < lower.length; k++) if (lower[k].split('-')[0] === range.split('-')[0]) found = k;
      if (found >= 0) return tags[found];
    }
    return tags[0];
  }
})();
