package engine

// bindDescribe makes the configured resource describe its objects with the type's
// DescribeWith and the provider's connection: every diagnostic then names them as users
// wrote them (a system by its name, which tells two managers apart where ids may be the
// same). The type is copied, as NewResource shares it among the resource's instances.
func (r *Resource[T, C]) bindDescribe() {
	if r.Type.DescribeWith == nil || r.data == nil || !r.data.connected {
		return
	}
	typ := *r.Type
	m, with := r.data.conn, typ.DescribeWith
	typ.Describe = func(a Attrs) string { return with(m, a) }
	r.Type = &typ
}
