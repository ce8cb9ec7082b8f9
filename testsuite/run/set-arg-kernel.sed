s/ near identifier '[^']*' at [^ ]*$/ near LOCATION/
