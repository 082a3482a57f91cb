# include: _base/web_and_three_was.tf

resource "apm_web_workers" "w" {
  web_server_id = apm_web_server.w.id
  workers       = {}
}
