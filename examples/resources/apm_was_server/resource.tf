resource "apm_system" "example" {
  name = "shop-prod"
}

resource "apm_node" "app" {
  system_id  = apm_system.example.id
  name       = "app-01"
  host_ip    = "10.0.0.21"
  agent_port = 7730
}

# Installs a WAS server on the node and starts it. The node is referred to by its id
# (<system_id>/<node>), so renaming the system leaves the server alone.
# Changing node_id, server_id, mode, server_type or install_root_path replaces the server;
# the ports, java_home and state are changed in place.
resource "apm_was_server" "example" {
  node_id     = apm_node.app.id
  server_id   = "was-1"
  mode        = "install"
  http_port   = 8080
  ajp_port    = 8009
  server_type = "Enterprise"
  java_home   = "/usr/lib/jvm/java-17"

  # running or stopped. Apply waits until the manager reports it; a server stopped
  # outside Terraform shows in the next plan. Leave it out to not manage the running state.
  state = "running"
  # Stop at once, without waiting for requests in progress, when apply or destroy stops it.
  force_stop = false

  timeouts = {
    create = "10m" # install and start
    update = "10m" # change settings, start or stop
    delete = "10m" # stop, then uninstall
  }
}

# Register a server the node already has instead: mode = "register" with one of the ids that
# data.apm_registerable_servers lists (see its example). Destroy then deregisters it.
