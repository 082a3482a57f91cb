# "<system>/<name>": the system's name (or its id, such as "SYS-0001/web-01") and the node's name.
import {
  to = apm_node.example
  id = "shop-prod/web-01"
}
