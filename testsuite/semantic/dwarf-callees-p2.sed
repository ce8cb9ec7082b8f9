/^# global embedded code$/,/^%}$/d
