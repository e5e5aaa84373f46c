-- Loaded after a docs recipe (the user's init.lua); works from Neovim 0.7 on. It does what a
-- user does and writes "key=value" lines to $PROBE_RESULT:
--   $PROBE_FILES (comma-separated): open each file, wait for passlint's diagnostics:
--     "FILE=CODE,CODE";
--   $PROBE_MENU (FILE:LINE): vim.lsp.buf.code_action() on that line; the menu it shows:
--     "menu=TITLE|TITLE"; with $PROBE_CHOOSE, the entry whose title starts with it is chosen
--     and the file written: "chosen=CODE,CODE" (the diagnostics after it);
--   $PROBE_FIX_ALL (FILE): :PasslintFixAll (the recipe's), then :write: "fix_all_menus=N" (the
--     menus it showed) and "fixed=CODE,CODE" (the diagnostics after it);
--   $PROBE_COMPLETE (FILE:LINE:TEXT): a new line below LINE, TEXT typed, then <C-x><C-o>:
--     "completion=WORD,WORD" (the items offered) and "completed=LINE TEXT" (the line after).
-- Lines are 1-based. The completion comes last: it needs the event loop, in insert mode.
local out = assert(io.open(vim.env.PROBE_RESULT, "w"))
local failed = false

local function report(key, value) out:write(key .. "=" .. value .. "\n") end

local function passlint_codes(bufnr)
  local codes = {}
  for _, diagnostic in ipairs(vim.diagnostic.get(bufnr)) do
    if diagnostic.source == "passlint" then table.insert(codes, diagnostic.code) end
  end
  table.sort(codes)
  return table.concat(codes, ",")
end

-- The server may publish again (once it has the editor's settings, after an edit): wait
-- until the diagnostics have not changed for two seconds.
local function settle(bufnr)
  local last, since = vim.inspect(vim.diagnostic.get(bufnr)), vim.loop.now()
  vim.wait(20000, function()
    local now = vim.inspect(vim.diagnostic.get(bufnr))
    if now ~= last then last, since = now, vim.loop.now() end
    return vim.loop.now() - since > 2000
  end, 100)
end

local function open(path)
  vim.cmd("edit " .. vim.fn.fnameescape(path))
  local bufnr = vim.api.nvim_get_current_buf()
  local ok = vim.wait(30000, function() return #vim.diagnostic.get(bufnr) > 0 end, 50)
  settle(bufnr)
  return bufnr, ok
end

-- Every menu a command shows goes through vim.ui.select: record its entries, and pick the
-- one whose title starts with `choose` (none when it is nil).
local menus, choose = {}, nil
vim.ui.select = function(items, opts, on_choice)
  local titles, chosen = {}, nil
  for _, item in ipairs(items) do
    local title = opts.format_item and opts.format_item(item) or tostring(item)
    table.insert(titles, title)
    if choose and not chosen and vim.startswith(title, choose) then chosen = item end
  end
  table.insert(menus, titles)
  on_choice(chosen)
end

local clients = vim.lsp.get_clients or vim.lsp.get_active_clients -- 0.10 renamed it

local function finish()
  report("filetype", vim.bo.filetype)
  out:close()
  for _, client in pairs(clients()) do vim.lsp.stop_client(client.id) end
  vim.wait(5000, function() return #clients() == 0 end, 50)
  vim.cmd(failed and "cquit!" or "qa!")
end

local function complete()
  local path, line, text = string.match(vim.env.PROBE_COMPLETE, "^(.-):(%d+):(.*)$")
  open(path)
  vim.api.nvim_win_set_cursor(0, { tonumber(line), 0 })
  local keys = vim.api.nvim_replace_termcodes("o" .. text .. "<C-x><C-o>", true, false, true)
  vim.api.nvim_feedkeys(keys, "t", false) -- typed once this script returns to the event loop
  local started, timer = vim.loop.now(), vim.loop.new_timer()
  timer:start(100, 100, vim.schedule_wrap(function()
    local items = vim.fn.complete_info({ "items" }).items
    if #items == 0 and vim.loop.now() - started < 20000 then return end
    timer:stop()
    local words = {}
    for _, item in ipairs(items) do table.insert(words, item.word) end
    report("completion", table.concat(words, ","))
    report("completed", vim.api.nvim_get_current_line())
    vim.cmd("stopinsert")
    vim.schedule(finish)
  end))
end

local function diagnostics()
  for path in string.gmatch(vim.env.PROBE_FILES, "[^,]+") do
    local bufnr, ok = open(path)
    report(path, passlint_codes(bufnr))
    if not ok then failed = true end
  end
end

local function menu()
  local path, line = string.match(vim.env.PROBE_MENU, "^(.*):(%d+)$")
  local bufnr = open(path)
  vim.api.nvim_win_set_cursor(0, { tonumber(line), 0 })
  local before, tick = #menus, vim.api.nvim_buf_get_changedtick(bufnr)
  choose = vim.env.PROBE_CHOOSE
  vim.lsp.buf.code_action()
  vim.wait(10000, function() return #menus > before end, 50)
  choose = nil
  report("menu", table.concat(menus[#menus] or {}, "|"))
  if vim.env.PROBE_CHOOSE then
    vim.wait(10000, function() return vim.api.nvim_buf_get_changedtick(bufnr) ~= tick end, 50)
    settle(bufnr)
    vim.cmd("silent write")
    report("chosen", passlint_codes(bufnr))
  end
end

local function fix_all()
  local bufnr = open(vim.env.PROBE_FIX_ALL)
  local tick, before = vim.api.nvim_buf_get_changedtick(bufnr), #menus
  vim.cmd("PasslintFixAll")
  vim.wait(20000, function() return vim.api.nvim_buf_get_changedtick(bufnr) ~= tick end, 50)
  settle(bufnr)
  vim.cmd("silent write")
  report("fix_all_menus", tostring(#menus - before))
  report("fixed", passlint_codes(bufnr))
end

local function main()
  diagnostics()
  if vim.env.PROBE_MENU then menu() end
  if vim.env.PROBE_FIX_ALL then fix_all() end
  if vim.env.PROBE_COMPLETE then complete() else finish() end
end

-- An error (a recipe without :PasslintFixAll, say) is reported, and Neovim quits.
local ok, err = xpcall(main, debug.traceback)
if not ok then
  report("error", (string.gsub(err, "\n", " | ")))
  failed = true
  finish()
end
