s/near identifier 'returnval' at .*/near identifier 'returnval' at TAPSET/
