-- wrk script for the call page with a different call ID on every request, so no cache can answer:
-- /call/BqT-NNNNNNN?type=grp4, where T is the wrk thread and NNNNNNN counts its requests. The ID has the
-- length of the fixed one (Bq7-xK2f9Zt), so nginx's `return 200` body keeps the same size.
local count = 0

function setup(thread)
  count = count + 1
  thread:set("thread_index", count % 10)
end

function init(args)
  sent = 0
end

function request()
  sent = sent + 1
  return wrk.format(nil, string.format("/call/Bq%d-%07d?type=grp4", thread_index, sent % 10000000))
end
