-- wrk script for bench-graphql: POST /graphql with the benchmark query for a random product id per request,
-- or (with "get" as the first argument) GET of a path; counts bad responses in either case.
--
--   wrk -t2 -c32 -d10s --latency -s post.lua http://127.0.0.1:PORT -- post IDS_FILE API_ID QUERY_FILE
--   wrk -t2 -c32 -d10s --latency -s post.lua http://127.0.0.1:PORT -- get /healthz
--
-- IDS_FILE holds one product id a line; QUERY_FILE the GraphQL document, which takes the id as the variable $id.
-- Every request is formatted once in init(); request() only picks one at random. At the end done() prints one line
-- that bench-graphql parses:
--   bench-graphql-lua: responses N non200 N errors N socket_connect N socket_read N socket_write N socket_timeout N
-- ("errors": 200 responses whose body holds a GraphQL "errors" member).

local threads = {}
local counter = 0

function setup(thread)
   counter = counter + 1
   thread:set("thread_number", counter)
   table.insert(threads, thread)
end

-- Globals of each thread's Lua state, read back by done() through thread:get().
responses = 0
non200 = 0
errors = 0

local requests = {}
local check_body = false

local function json_string(text)
   return '"' .. text:gsub('[%c"\\]', function(c)
      if c == '"' then return '\\"' elseif c == '\\' then return '\\\\' end
      return string.format("\\u%04x", c:byte())
   end) .. '"'
end

local function read_file(path)
   local file = assert(io.open(path, "rb"))
   local text = file:read("*a")
   file:close()
   return text
end

function init(args)
   math.randomseed(os.time() * 1000 + (thread_number or 0) * 7919)
   local mode = args[1]
   if mode == "get" then
      requests[1] = wrk.format("GET", args[2] or "/")
   elseif mode == "post" then
      check_body = true
      local api_id, query = args[3], read_file(args[4])
      local headers = {["content-type"] = "application/json", ["x-api-id"] = api_id}
      for id in io.lines(args[2]) do
         if id ~= "" then
            local body = '{"query":' .. json_string(query) .. ',"variables":{"id":' .. json_string(id) .. '}}'
            requests[#requests + 1] = wrk.format("POST", "/graphql", headers, body)
         end
      end
   else
      error("post.lua: the first argument must be get or post")
   end
   assert(#requests > 0, "post.lua: no requests")
end

function request()
   return requests[math.random(#requests)]
end

function response(status, headers, body)
   responses = responses + 1
   if status ~= 200 then
      non200 = non200 + 1
   elseif check_body and body and body:find('"errors"', 1, true) then
      errors = errors + 1
   end
end

function done(summary, latency, requests_)
   local total = {responses = 0, non200 = 0, errors = 0}
   for _, thread in ipairs(threads) do
      for key in pairs(total) do total[key] = total[key] + (thread:get(key) or 0) end
   end
   local e = summary.errors
   io.write(string.format(
      "bench-graphql-lua: responses %d non200 %d errors %d socket_connect %d socket_read %d socket_write %d socket_timeout %d\n",
      total.responses, total.non200, total.errors, e.connect, e.read, e.write, e.timeout))
   io.write(string.format("bench-graphql-lua: latency_us p50 %d p75 %d p90 %d p99 %d max %d\n",
      latency:percentile(50), latency:percentile(75), latency:percentile(90), latency:percentile(99), latency.max))
end
