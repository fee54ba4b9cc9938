from railkit.ui.voila_template import main

main()
