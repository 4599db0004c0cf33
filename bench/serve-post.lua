-- bench/serve-post.lua - wrk script for bench/serve.sh: POST /games with
-- one real game per request, cycling through the games of the file named
-- by $GAMES (games separated by NUL bytes).
local games = {}
local n = 0

function init(args)
  local f = assert(io.open(os.getenv("GAMES"), "rb"))
  local all = f:read("*a")
  f:close()
  for g in string.gmatch(all, "([^%z]+)") do
    n = n + 1
    games[n] = g
  end
end

local i = 0
function request()
  i = i % n + 1
  return wrk.format("POST", nil, {["Content-Type"] = "application/x-go-sgf"},
                    games[i])
end
