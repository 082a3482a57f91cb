# include: _base/web_and_three_was.tf
