-- Drives `libtorch-tidy lsp` from Neovim's own LSP client (0.7: start_client
-- and buf_attach_client), headless: open the file, wait for our diagnostics,
-- apply the quickfix of the first finding, write the buffer, quit. What it
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
  local first = ours()[1]
  local client = vim.lsp.get_client_by_id(id)
  -- Neovim keeps byte columns; the request goes out in the client's
  -- encoding (UTF-16), converted by Neovim itself.
  local params = vim.lsp.util.make_given_range_params(
    { first.lnum + 1, first.col }, { first.end_lnum + 1, first.end_col }, buf,
    client.offset_encoding)
  params.context = {
    diagnostics = { {
      range = params.range, message = first.message, code = first.code,
      source = first.source, severity = first.severity,
    } },
    only = { 'quickfix' },
  }
  local response = client.request_sync('textDocument/codeAction', params,
                                       30000, buf)
  if not response or response.err or not response.result or
      #response.result == 0 then
    return fail('no code action: ' .. vim.inspect(response))
  end
  local action = response.result[1]
  say(string.format('action %s (%s, preferred %s)', action.title, action.kind,
                    tostring(action.isPreferred)))
  vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
  vim.cmd('write')
  say('written')
  client.stop()
end)
if not ok then
  fail(tostring(err))
end
log:close()
vim.cmd('qall!')
