-- Drives `libtorch-tidy lsp` from Neovim's own LSP client (0.7: start_client
-- and buf_attach_client), headless: open the file, wait for our diagnostics,
-- apply the quickfix of the first finding, silence the other with the
-- NOLINT action and see it go, write the buffer, quit. What it
-- saw goes to $LSP_TEST_LOG; any failure quits with exit code 1.
local log = assert(io.open(vim.env.LSP_TEST_LOG, 'w'))
local function say(text)
  log:write(text .. '\n')
  log:flush()
end
local function fail(text)
  say('FAIL: ' .. text)
  log:close()
  vim.cmd('cquit 1')
end

local ok, err = pcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(vim.env.LSP_TEST_FILE))
  local buf = vim.api.nvim_get_current_buf()
  local id = vim.lsp.start_client({
    name = 'libtorch-tidy',
    cmd = { vim.env.LSP_TEST_SERVER, 'lsp' },
    root_dir = vim.fn.fnamemodify(vim.env.LSP_TEST_FILE, ':p:h'),
  })
  if not id then
    return fail('the server did not start')
  end
  vim.lsp.buf_attach_client(buf, id)
  local function ours()
    local found = {}
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.source == 'libtorch-tidy' then
        table.insert(found, d)
      end
    end
    table.sort(found, function(a, b) return a.lnum < b.lnum end)
    return found
  end
  if not vim.wait(60000, function() return #ours() > 0 end, 50) then
    return fail('no diagnostics from libtorch-tidy within 60 s')
  end
  for _, d in ipairs(ours()) do
    say(string.format('diagnostic %s at %d:%d: %s', d.code, d.lnum + 1,
                      d.col + 1, d.message))
  end
  local client = vim.lsp.get_client_by_id(id)
  -- The code actions of finding d, of the given title's start.
  local function actions(d, title)
    -- Neovim keeps byte columns; the request goes out in the client's
    -- encoding (UTF-16), converted by Neovim itself.
    local params = vim.lsp.util.make_given_range_params(
      { d.lnum + 1, d.col }, { d.end_lnum + 1, d.end_col }, buf,
      client.offset_encoding)
    params.context = {
      diagnostics = { {
        range = params.range, message = d.message, code = d.code,
        source = d.source, severity = d.severity,
      } },
      only = { 'quickfix' },
    }
    local response = client.request_sync('textDocument/codeAction', params,
                                         30000, buf)
    if not response or response.err or not response.result then
      return {}
    end
    local found = {}
    for _, action in ipairs(response.result) do
      if action.title:sub(1, #title) == title then
        table.insert(found, action)
      end
    end
    return found
  end
  local fix = actions(ours()[1], 'Apply fix: ')[1]
  if not fix then
    return fail('no fix-it action on the first finding')
  end
  say(string.format('action %s (%s, preferred %s)', fix.title, fix.kind,
                    tostring(fix.isPreferred)))
  vim.lsp.util.apply_workspace_edit(fix.edit, client.offset_encoding)
  -- The edit is analyzed: one finding left.
  if not vim.wait(60000, function() return #ours() == 1 end, 50) then
    return fail('the fixed finding did not go within 60 s')
  end
  local left = ours()[1]
  local silence = actions(left, 'Silence this finding here')[1]
  if not silence then
    return fail('no silence action on ' .. left.code)
  end
  say(string.format('action %s (%s)', silence.title, silence.kind))
  vim.lsp.util.apply_workspace_edit(silence.edit, client.offset_encoding)
  if not vim.wait(60000, function() return #ours() == 0 end, 50) then
    return fail('the silenced finding did not go within 60 s')
  end
  say('no findings left')
  vim.cmd('write')
  say('written')
  client.stop()
end)
if not ok then
  fail(tostring(err))
end
log:close()
vim.cmd('qall!')
