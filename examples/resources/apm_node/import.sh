# A node is imported by "<system>/<name>", where <system> is the system's name or its id.
terraform import apm_node.example shop-prod/web-01
terraform import apm_node.example SYS-0001/web-01
